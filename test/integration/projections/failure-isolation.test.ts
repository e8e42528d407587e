import { expect } from 'chai';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../../infra/db/create-db.ts';
import { type EventStore, type Position, encodePosition } from '../../../infra/eventstore/event-store.ts';
import { createPostgresEventStore } from '../../../infra/eventstore/postgres/postgres-event-store.ts';
import { readCheckpoints } from '../../../infra/projections/checkpoints.ts';
import type { Projector } from '../../../infra/projections/projector.ts';
import { ProjectionRunner, type RunnerOptions } from '../../../infra/projections/runner.ts';
import { freshDatabase } from '../../support/database.ts';
import { pollUntil } from '../../support/scrobbler.ts';

type Apply = Projector['apply'];

/** Records every event it reads in `table`; `rigged` throws on events carrying `poison`. */
function recorder(name: string, table: string, handles: string[], options: { rigged?: boolean; version?: number } = {}): Projector {
  const apply: Apply = async (trx, events) => {
    for (const event of events) {
      if (options.rigged && (event.data as { progress?: { poison?: boolean } }).progress?.poison) throw new Error('rigged to fail on poison');
      await sql`insert into ${sql.table(table)} (event_id) values (${event.id}) on conflict do nothing`.execute(trx);
    }
  };
  return { name, version: options.version ?? 1, handles: handles as Projector['handles'], tables: [table] as unknown as Projector['tables'], apply };
}

const healthy = () => recorder('healthy', 'healthy_rows', ['TaskProgressed', 'TaskStarted']);
const rigged = (options: { rigged?: boolean; version?: number } = { rigged: true }) => recorder('rigged', 'rigged_rows', ['TaskProgressed'], options);

const progress = (n: number, poison = false) => ({ type: 'TaskProgressed', data: { task_id: 't', progress: { n, poison }, at: new Date().toISOString() } });

describe('projection runner: a failing projector fails alone', () => {
  let database: DatabaseHandle;
  let store: EventStore;
  let runner: ProjectionRunner | undefined;
  /** The event before the poison, the poison, and the head of the log. */
  let before: Position;
  let poison: { id: string; stream: string; position: Position };
  let head: Position;

  const start = async (projectors: Projector[], options: RunnerOptions) => {
    runner = new ProjectionRunner(database.db, store, projectors, { batchSize: 100, ...options });
    await runner.start();
    return runner;
  };
  const rows = async (table: string) => Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(database.db)).rows[0]!.n);
  const statusOf = (name: string) => runner!.status().find((s) => s.name === name)!;

  beforeEach(async () => {
    database = await freshDatabase();
    store = createPostgresEventStore(database.db);
    for (const table of ['healthy_rows', 'rigged_rows']) await sql`create table ${sql.table(table)} (event_id text primary key)`.execute(database.db);
    before = (await store.append('task-before', Array.from({ length: 30 }, (_, i) => progress(i)), 'no_stream')).position;
    const bad = await store.append('task-poison', [progress(30, true)], 'no_stream');
    const [recorded] = await store.readStream('task-poison');
    poison = { id: recorded!.id, stream: 'task-poison', position: bad.position };
    head = (await store.append('task-after', Array.from({ length: 20 }, (_, i) => progress(31 + i)), 'no_stream')).position;
  });
  afterEach(async () => {
    await runner?.stop();
    runner = undefined;
    await database.close();
  });

  it('stalls at the event before the one it keeps failing on, while the others reach the head', async () => {
    await start([healthy(), rigged()], { retryMs: 5, maxAttempts: 3 });
    expect(await runner!.waiters.waitFor(head, 20_000)).to.equal(true);
    expect(await rows('healthy_rows')).to.equal(51);
    expect(await rows('rigged_rows')).to.equal(30);
    const stalled = statusOf('rigged');
    expect(stalled).to.deep.include({ state: 'stalled', position: before });
    expect(stalled.stall).to.deep.include({ eventId: poison.id, stream: poison.stream, type: 'TaskProgressed', error: 'rigged to fail on poison', eventPosition: poison.position });
    expect(statusOf('healthy')).to.deep.include({ state: 'live', position: head });
    const stored = (await readCheckpoints(database.db)).get('rigged')!;
    expect(stored).to.deep.include({ state: 'stalled', position: before });
    expect(stored.stall).to.deep.include({ eventId: poison.id, stream: 'task-poison', type: 'TaskProgressed' });
    // A writer of what the stalled projector reads does not wait for it.
    expect(await runner!.waitFor(head, new Set(['TaskProgressed']), 1)).to.equal(true);
  });

  it('retries alone with backoff: the others keep their pace, and only writers of its types wait for it', async () => {
    await start([healthy(), rigged()], { retryMs: 60_000, maxAttempts: 5 });
    const started = (await store.append('task-s', [{ type: 'TaskStarted', data: { task_id: 's', name: 'x', params: {}, started_by: null, at: new Date().toISOString() } }], 'no_stream')).position;
    expect(await runner!.waitFor(started, new Set(['TaskStarted']), 20_000)).to.equal(true);
    expect(await rows('healthy_rows')).to.equal(52);
    expect(statusOf('rigged')).to.deep.include({ state: 'retrying', failure: { attempts: 1, error: 'rigged to fail on poison' } });
    expect(await runner!.waitFor(started, new Set(['TaskProgressed']), 50)).to.equal(false);
  });

  it('a restart tries it once more: fixed, it carries on from the event it stalled on', async () => {
    await start([healthy(), rigged()], { retryMs: 5, maxAttempts: 3 });
    await runner!.waiters.waitFor(head, 20_000);
    await runner!.stop();
    await start([healthy(), rigged({ rigged: false })], { retryMs: 60_000 });
    expect(await runner!.waiters.waitFor(head, 20_000)).to.equal(true);
    expect(await rows('rigged_rows')).to.equal(51);
    expect(statusOf('rigged')).to.deep.include({ state: 'live', position: head });
    expect((await readCheckpoints(database.db)).get('rigged')).to.deep.include({ state: 'live', stall: null });
  });

  it('a restart of a projector still broken stalls it again after one attempt, since the first stall', async () => {
    await start([healthy(), rigged()], { retryMs: 5, maxAttempts: 3 });
    await runner!.waiters.waitFor(head, 20_000);
    const since = statusOf('rigged').stall!.since;
    await runner!.stop();
    await start([healthy(), rigged()], { retryMs: 60_000, maxAttempts: 3 });
    expect(await runner!.waiters.waitFor(head, 20_000)).to.equal(true);
    const again = statusOf('rigged');
    expect(again).to.deep.include({ state: 'stalled', position: before });
    expect(again.stall!.since.getTime()).to.equal(since.getTime());
  });

  it('a version bump rebuilds it from the start and clears the stall; a rebuild that stalls fails', async () => {
    await start([healthy(), rigged()], { retryMs: 5, maxAttempts: 2 });
    await runner!.waiters.waitFor(head, 20_000);
    try {
      await runner!.rebuild(['rigged']);
      expect.fail('a rebuild that stalls must not succeed');
    } catch (error) {
      expect((error as Error).message).to.include('rigged stalled on TaskProgressed in task-poison');
    }
    await runner!.stop();
    await start([healthy(), rigged({ rigged: false, version: 2 })], { retryMs: 5 });
    // A rebuild behind the live read models is not waited for: follow its status.
    await pollUntil(async () => statusOf('rigged'), (s) => s.state === 'live', 20_000);
    expect(await rows('rigged_rows')).to.equal(51);
    const stored = (await readCheckpoints(database.db)).get('rigged')!;
    expect(stored).to.deep.include({ version: 2, state: 'live', stall: null });
    expect(encodePosition(stored.position)).to.equal(encodePosition(head));
  });
});
