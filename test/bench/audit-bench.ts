/**
 * `npm run bench:audit`: the audit export's paging over a large log on the embedded default. Seeds
 * BENCH_EVENTS events (default 100000) in multi-row appends, then walks the export with `limit=1000`
 * while another 1000 events are appended every ten pages, and checks that every event came once, in
 * log order, and that a cursor asked again gives the same page. Prints the time per page.
 */
import { openPGlite } from '../../infra/db/create-db.ts';
import { migrate } from '../../infra/db/migrations/index.ts';
import { type Position, comparePositions } from '../../infra/eventstore/event-store.ts';
import { createPostgresEventStore } from '../../infra/eventstore/postgres/postgres-event-store.ts';
import { Cursor } from '../../infra/eventstore/log-point.ts';
import { auditPage } from '../../query/admin/audit.queries.ts';
import { envInt, fmtMs, percentile, timed } from './report.ts';

const total = envInt('BENCH_EVENTS', 100_000);
const handle = await openPGlite({});
await migrate(handle.db);
const store = createPostgresEventStore(handle.db);
const append = (n: number) =>
  store.appendMany([{ streamId: 'enrichmenterrors-all', expectedRevision: 'any', events: Array.from({ length: n }, () => ({ type: 'EnrichmentErrorsCleared', data: { source: null, at: new Date().toISOString() } })) }]);

const seeded = await timed(async () => {
  for (let done = 0; done < total; done += 1000) await append(Math.min(1000, total - done));
});
console.log(`seeded ${total} events in ${fmtMs(seeded.ms)}`);

const pageMs: number[] = [];
let after: string | null = null;
let seen = 0;
let appended = 0;
let last: Position | undefined;
type Page = Awaited<ReturnType<typeof auditPage>>;
for (let page = 0; ; page++) {
  const cursor: Position | undefined = after === null ? undefined : Cursor.parse(after);
  let { ms, value }: { ms: number; value: Page } = await timed(() => auditPage(store, { after: cursor, limit: 1000 }));
  pageMs.push(ms);
  if (page % 10 === 5) {
    // Appends while the walk goes on: the same cursor gives the same events (and, at the end of the log, the new ones after them).
    await append(1000);
    appended += 1000;
    const again = await auditPage(store, { after: cursor, limit: 1000 });
    const before = value.events.map((e) => e.cursor);
    if (JSON.stringify(again.events.slice(0, before.length).map((e) => e.cursor)) !== JSON.stringify(before)) throw new Error(`page ${page} moved`);
    value = again;
  }
  for (const e of value.events) {
    const position = Cursor.parse(e.cursor);
    if (last && comparePositions(position, last) <= 0) throw new Error(`out of order at page ${page}`);
    last = position;
  }
  seen += value.events.length;
  if (!value.has_more) break;
  after = value.next;
}
if (seen !== total + appended) throw new Error(`saw ${seen} of ${total + appended}`);
console.log(`walked ${seen} events (${appended} appended during the walk) in ${pageMs.length} pages: p50 ${fmtMs(percentile(pageMs, 50))}, p99 ${fmtMs(percentile(pageMs, 99))} per page`);
await handle.close();
