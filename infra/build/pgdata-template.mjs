/**
 * Part of the build: a new embedded database, created and migrated once here in
 * dist/pgdata-template, with every read model's checkpoint at the start of the (empty) log as a
 * first start would write them. A first start with an empty DATA_DIR copies it instead of running
 * PostgreSQL's initdb in WebAssembly, which alone costs several times a restart, and finds its
 * read models ready instead of resetting each one's tables.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const TEMPLATE = 'pgdata-template';

export async function makeTemplate(buildDir) {
  const load = (path) => import(pathToFileURL(join(buildDir, path)).href);
  const { openPGlite } = await load('infra/db/create-db.js');
  const { migrate } = await load('infra/db/migrations/index.js');
  const { ProjectionRunner } = await load('infra/projections/runner.js');
  const { projectors } = await load('projectors/registry.js');
  const { createPostgresEventStore } = await load('infra/eventstore/postgres/postgres-event-store.js');
  const database = await openPGlite({ dataDir: join(buildDir, TEMPLATE) });
  await migrate(database.db);
  const store = createPostgresEventStore(database.db, { singleConnection: true });
  const runner = new ProjectionRunner(database.db, store, projectors);
  await runner.start();
  await runner.waiters.waitFor(await store.headPosition(), 60_000);
  await runner.stop();
  await store.close();
  await database.close();
}

if (process.argv[1] === import.meta.filename) await makeTemplate(process.argv[2]);
