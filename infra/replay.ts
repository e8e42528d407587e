import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { openDatabase, openPGlite } from './db/create-db.ts';
import { migrate } from './db/migrations/index.ts';
import { decodePosition, encodePosition } from './eventstore/event-store.ts';
import { createPostgresEventStore } from './eventstore/postgres/postgres-event-store.ts';
import { setLogLevel } from './logger.ts';
import { replayInto } from './projections/replay.ts';
import { projectors } from '../projectors/registry.ts';

/**
 * `npm run replay -- --to <position> [--scratch <dir>]`: rebuilds every read model into a scratch
 * database (in memory, or a PGlite directory to inspect afterwards) from the configured log through
 * `<position>` (`<commit>/<prepare>`, as the history and the audit export give it), and prints the
 * rows per read model. The configured database is only read. See docs/time-travel.md.
 */
const { values } = parseArgs({ options: { to: { type: 'string' }, scratch: { type: 'string' } } });
if (!values.to || !/^\d{1,19}\/\d{1,19}$/.test(values.to)) {
  console.error('usage: npm run replay -- --to <commit>/<prepare> [--scratch <dir>]');
  process.exit(2);
}
setLogLevel('error');
const config = loadConfig();
const source = await openDatabase(config);
const store = config.EVENTSTORE_URL
  ? (await import('./eventstore/eventstoredb/eventstoredb-event-store.ts')).createEventStoreDbEventStore(config.EVENTSTORE_URL)
  : createPostgresEventStore(source.db, { engine: source.engine });
const scratch = await openPGlite(values.scratch ? { dataDir: values.scratch } : {});
await migrate(scratch.db);
const summary = await replayInto(store, scratch.db, projectors, decodePosition(values.to));
console.log(JSON.stringify({ ...summary, through: summary.through && encodePosition(summary.through), scratch: values.scratch ?? 'in memory' }, null, 2));
await store.close();
await scratch.close();
await source.close();
process.exit(Object.keys(summary.failed).length > 0 ? 1 : 0);
