import { expect } from 'chai';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../../infra/db/create-db.ts';
import type { EventStore } from '../../../infra/eventstore/event-store.ts';
import { createPostgresEventStore } from '../../../infra/eventstore/postgres/postgres-event-store.ts';
import type { Projector } from '../../../infra/projections/projector.ts';
import { ProjectionRunner } from '../../../infra/projections/runner.ts';
import { taskHistoryProjector } from '../../../projectors/tasks/task-history.projector.ts';
import { freshDatabase } from '../../support/database.ts';
import { appendProgress, counted, countingProjector, progress } from '../../support/counting-projector.ts';

async function tableRows(database: DatabaseHandle) {
  return database.db.selectFrom('task_history').selectAll().orderBy('task_id').execute();
}

describe('projection runner', () => {
  let database: DatabaseHandle;
  let store: EventStore;
  beforeEach(async () => {
    database = await freshDatabase();
    store = createPostgresEventStore(database.db);
    await sql`create table counted (event_id text primary key, times int not null)`.execute(database.db);
  });
  afterEach(() => database.close());

  it('given heavy events, then a batch ends once their weight passes the batch size, each event still applied once', async () => {
    const head = await appendProgress(store, 60);
    const sizes: number[] = [];
    const heavy = countingProjector();
    const apply = heavy.apply.bind(heavy);
    const weighed: Projector = {
      ...heavy,
      weight: () => 10,
      apply: (trx, events) => {
        sizes.push(events.length);
        return apply(trx, events);
      },
    };
    const runner = new ProjectionRunner(database.db, store, [weighed], { batchSize: 25 });
    await runner.start();
    expect(await runner.waiters.waitFor(head, 10_000)).to.equal(true);
    await runner.stop();
    expect(Math.max(...sizes)).to.equal(2);
    expect(await counted(database)).to.deep.equal({ n: 60, max: 1 });
  });

  it('applies every event once, and a restarted runner skips what it already applied', async () => {
    const head = await appendProgress(store, 450);
    const first = new ProjectionRunner(database.db, store, [countingProjector()], { batchSize: 100 });
    await first.start();
    expect(await first.waiters.waitFor(head, 10_000)).to.equal(true);
    await first.stop();

    const second = new ProjectionRunner(database.db, store, [countingProjector()], { batchSize: 100 });
    await second.start();
    const more = await appendProgress(store, 10);
    expect(await second.waiters.waitFor(more, 10_000)).to.equal(true);
    await second.stop();
    expect(await counted(database)).to.deep.equal({ n: 460, max: 1 });
  });

  it('a projector that crashes mid-batch resumes without loss or double apply', async () => {
    const head = await appendProgress(store, 300);
    const crashing = countingProjector({ failOnce: 2 });
    const runner = new ProjectionRunner(database.db, store, [crashing], { batchSize: 100, retryMs: 10 });
    await runner.start();
    expect(await runner.waiters.waitFor(head, 10_000)).to.equal(true);
    await runner.stop();
    expect(crashing.failures).to.equal(2);
    expect(await counted(database)).to.deep.equal({ n: 300, max: 1 });
  });

  it('a process killed mid-batch resumes from its checkpoint on the next start', async () => {
    const head = await appendProgress(store, 300);
    const killed = new ProjectionRunner(database.db, store, [countingProjector({ failOnce: 1000 })], { batchSize: 100, retryMs: 10 });
    await killed.start();
    await new Promise((r) => setTimeout(r, 100));
    await killed.stop();
    expect((await counted(database)).n).to.equal(0);

    const restarted = new ProjectionRunner(database.db, store, [countingProjector()], { batchSize: 100 });
    await restarted.start();
    expect(await restarted.waiters.waitFor(head, 10_000)).to.equal(true);
    await restarted.stop();
    expect(await counted(database)).to.deep.equal({ n: 300, max: 1 });
  });

  it('a bumped version rebuilds the read model on start, and an unchanged one does not', async () => {
    const head = await appendProgress(store, 120);
    const v1 = new ProjectionRunner(database.db, store, [countingProjector({ version: 1 })]);
    await v1.start();
    await v1.waiters.waitFor(head, 10_000);
    await v1.stop();
    await sql`update counted set times = 7`.execute(database.db);

    const same = new ProjectionRunner(database.db, store, [countingProjector({ version: 1 })]);
    await same.start();
    await same.stop();
    expect((await counted(database)).max).to.equal(7);

    const v2 = new ProjectionRunner(database.db, store, [countingProjector({ version: 2 })]);
    await v2.start();
    await v2.waiters.waitFor(head, 10_000);
    await v2.stop();
    expect(await counted(database)).to.deep.equal({ n: 120, max: 1 });
  });

  it('a rebuilt read model equals the live one, and live projection keeps going while it runs', async () => {
    const runner = new ProjectionRunner(database.db, store, [taskHistoryProjector, countingProjector()], { batchSize: 50 });
    await runner.start();
    for (let i = 0; i < 40; i++) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
      const events = [
        { type: 'TaskStarted', data: { task_id: `T${i}`, name: `family.${i % 3}`, params: { i }, started_by: 'alice', at } },
        progress(`T${i}`, i),
        i % 2 === 0
          ? { type: 'TaskFinished', data: { task_id: `T${i}`, summary: { i }, at } }
          : { type: 'TaskFailed', data: { task_id: `T${i}`, error: 'boom', at } },
      ];
      await store.append(`task-T${i}`, events, 'no_stream');
    }
    await runner.waiters.waitFor(await store.headPosition(), 10_000);
    const live = await tableRows(database);

    const rebuilt = runner.rebuild(['task_history']);
    const during = await store.append('task-live', [progress('live', 1)], 'no_stream');
    expect(await runner.waiters.waitFor(during.position, 10_000)).to.equal(true);
    const replayed = await rebuilt;
    expect(replayed).to.be.greaterThan(0);
    await runner.stop();
    expect(await tableRows(database)).to.deep.equal(live);
    expect((await counted(database)).max).to.equal(1);
  });

  it('a rebuild started and cancelled leaves every projector in a lane at every moment: the status (/readyz) never fails', async () => {
    const runner = new ProjectionRunner(database.db, store, [taskHistoryProjector, countingProjector()], { batchSize: 5 });
    await runner.start();
    for (let i = 0; i < 40; i++) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
      await store.append(`task-T${i}`, [{ type: 'TaskStarted', data: { task_id: `T${i}`, name: 'family', params: {}, started_by: 'alice', at } }, progress(`T${i}`, i)], 'no_stream');
    }
    await runner.waiters.waitFor(await store.headPosition(), 10_000);
    const failures: unknown[] = [];
    const states = new Set<string>();
    let watching = true;
    const watch = () => {
      try {
        for (const s of runner.status()) if (s.name === 'task_history') states.add(s.state);
      } catch (error) {
        failures.push(error);
      }
      if (watching) setImmediate(watch);
    };
    watch();

    const cancel = new AbortController();
    const rebuilt = runner.rebuild(['task_history'], (p) => p.processed > 0 && cancel.abort(), cancel.signal);
    const outcome = await rebuilt.then(() => 'completed', () => 'cancelled');
    // The cancel takes effect at the runner's next step.
    await runner.waiters.waitFor(await store.headPosition(), 10_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    watching = false;
    await runner.stop();
    expect(outcome).to.equal('cancelled');
    expect(states).to.include('rebuilding');
    expect(failures.map(String)).to.deep.equal([]);
    expect(runner.status().find((s) => s.name === 'task_history')?.state).to.equal('live');
  });
});
