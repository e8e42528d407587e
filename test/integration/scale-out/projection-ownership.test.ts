import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../../infra/db/create-db.ts';
import { lockOwnership } from '../../../infra/db/lock-ownership.ts';
import type { EventStore } from '../../../infra/eventstore/event-store.ts';
import { createPostgresEventStore } from '../../../infra/eventstore/postgres/postgres-event-store.ts';
import { ProjectionRunner } from '../../../infra/projections/runner.ts';
import { appendProgress, counted, countingProjector } from '../../support/counting-projector.ts';
import { freshDatabase } from '../../support/database.ts';

/** Two runners on one database, as two `projector` processes would be (docs/deploy.md). */
describe('projections with two would-be owners', function () {
  this.timeout(60_000);
  let database: DatabaseHandle;
  let store: EventStore;
  const runners: ProjectionRunner[] = [];
  beforeEach(async () => {
    database = await freshDatabase();
    store = createPostgresEventStore(database.db);
    await sql`create table counted (event_id text primary key, times int not null)`.execute(database.db);
  });
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
    await database.close();
  });

  const runner = (lost: () => void = () => {}) => {
    const created = new ProjectionRunner(database.db, store, [countingProjector()], { batchSize: 20, lostOwnership: lost });
    runners.push(created);
    return created;
  };

  it('given two runners both believing they own the projections, then every event is applied once and the one whose checkpoint moved stops', async () => {
    const stopped: string[] = [];
    const first = runner(() => stopped.push('first'));
    const second = runner(() => stopped.push('second'));
    await first.start();
    await second.start();
    const head = await appendProgress(store, 400);
    await Promise.race([first.waiters.waitFor(head, 30_000), second.waiters.waitFor(head, 30_000)]);
    for (let i = 0; i < 100 && (await counted(database)).n < 400; i++) await sleep(100);
    expect(await counted(database)).to.deep.equal({ n: 400, max: 1 });
    expect(stopped).to.have.length.at.least(1);
    expect([first.running, second.running].filter(Boolean)).to.have.length.at.most(1);
  });

  it('given a standby, when the owner’s lock connection dies, then the standby takes over within seconds and carries on from the checkpoint', async function () {
    if (!database.connectionString) this.skip(); // A session advisory lock needs PostgreSQL; the embedded database is one process.
    const first = runner();
    const second = runner();
    const owner = lockOwnership(database.connectionString!, 'projections', first);
    const standby = lockOwnership(database.connectionString!, 'projections', second);
    try {
      expect(await owner.claim()).to.equal(true);
      expect(await standby.claim()).to.equal(false);
      standby.waitForTurn();
      const before = await appendProgress(store, 100);
      expect(await first.waiters.waitFor(before, 20_000)).to.equal(true);

      // The owner's lock connection dies (what kill -9 of its process does): the server frees the lock.
      await sql`select pg_terminate_backend(pid) from pg_locks
                where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database())`.execute(database.db);
      const diedAt = Date.now();
      for (let i = 0; i < 100 && !second.running; i++) await sleep(50);
      expect(second.running).to.equal(true);
      expect(Date.now() - diedAt).to.be.below(3000);
      expect(first.running).to.equal(false);

      const after = await appendProgress(store, 100);
      expect(await second.waiters.waitFor(after, 20_000)).to.equal(true);
      expect(await counted(database)).to.deep.equal({ n: 200, max: 1 });
    } finally {
      await owner.stop();
      await standby.stop();
    }
  });
});
