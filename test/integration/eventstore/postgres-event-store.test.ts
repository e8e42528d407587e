import { expect } from 'chai';
import { sql } from 'kysely';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Position, type RecordedEvent, WrongExpectedVersionError, comparePositions } from '../../../infra/eventstore/event-store.ts';
import { createPostgresEventStore, eventWriterLock } from '../../../infra/eventstore/postgres/postgres-event-store.ts';
import { engineUnderTest, freshDatabase } from '../../support/database.ts';
import { eventStoreContract } from './event-store.contract.ts';

eventStoreContract(
  `postgres adapter on ${engineUnderTest}`,
  async () => {
    const database = await freshDatabase();
    return { store: createPostgresEventStore(database.db), close: () => database.close() };
  },
  // PGlite is one connection: appends cannot interleave there, on PostgreSQL they do.
  { concurrentWriters: engineUnderTest === 'postgres' },
);

describe('postgres adapter: appendMany in one statement', () => {
  const ev = (n: number) => ({ type: 'Appended', data: { n } });

  it('given one stream refused, then nothing is written, not the other streams, nor their revisions', async () => {
    const database = await freshDatabase();
    const store = createPostgresEventStore(database.db);
    try {
      await store.append('taken', [ev(0)], 'no_stream');
      const head = await store.headPosition();
      const refused = await store.appendMany([
        { streamId: 'fresh', events: [ev(1), ev(2)], expectedRevision: 'no_stream' },
        { streamId: 'taken', events: [ev(3)], expectedRevision: 'no_stream' },
      ]).catch((error: unknown) => error);
      expect(refused).to.be.instanceOf(WrongExpectedVersionError);
      expect(refused).to.include({ streamId: 'taken', expected: 'no_stream', actual: 0 });
      expect(await store.readAll({ after: head })).to.deep.equal([]);
      expect(await store.readStream('fresh')).to.deep.equal([]);
      // The refused call moved no revision: the streams take their next events where they were.
      await store.appendMany([
        { streamId: 'fresh', events: [ev(4)], expectedRevision: 'no_stream' },
        { streamId: 'taken', events: [ev(5)], expectedRevision: 0 },
      ]);
      expect((await store.readStream('taken')).map((e) => [e.revision, e.data])).to.deep.equal([[0, { n: 0 }], [1, { n: 5 }]]);
      expect((await store.readStream('fresh')).map((e) => [e.revision, e.data])).to.deep.equal([[0, { n: 4 }]]);
    } finally {
      await store.close();
      await database.close();
    }
  });

  it('given a stream twice in one call, then the second append is checked after the first, and the log keeps the call order', async () => {
    const database = await freshDatabase();
    const store = createPostgresEventStore(database.db);
    try {
      const head = await store.headPosition();
      const result = await store.appendMany([
        { streamId: 'twice', events: [ev(1), ev(2)], expectedRevision: 'no_stream' },
        { streamId: 'other', events: [ev(3)], expectedRevision: 'any' },
        { streamId: 'twice', events: [ev(4)], expectedRevision: 1 },
      ]);
      expect(result.nextRevision).to.equal(2);
      const log = await store.readAll({ after: head });
      expect(log.map((e) => [e.streamId, e.revision, e.data])).to.deep.equal([
        ['twice', 0, { n: 1 }], ['twice', 1, { n: 2 }], ['other', 0, { n: 3 }], ['twice', 2, { n: 4 }],
      ]);
      const stale = await store.appendMany([
        { streamId: 'twice', events: [ev(5)], expectedRevision: 2 },
        { streamId: 'twice', events: [ev(6)], expectedRevision: 2 },
      ]).catch((error: unknown) => error);
      expect(stale).to.be.instanceOf(WrongExpectedVersionError);
      expect(stale).to.include({ streamId: 'twice', expected: 2, actual: 3 });
      expect(await store.readStream('twice')).to.have.length(3);
    } finally {
      await store.close();
      await database.close();
    }
  });
});

describe('postgres adapter: readers that need few types', () => {
  it('do not carry the data of the other events', async () => {
    const database = await freshDatabase();
    const store = createPostgresEventStore(database.db);
    try {
      await store.append('page-1', [{ type: 'Wanted', data: { n: 1 } }, { type: 'Large', data: { rows: 'x'.repeat(10_000) } }], 'no_stream');
      const [wanted, large] = await store.readAll({ withDataOf: ['Wanted'] });
      expect(wanted!.data).to.deep.equal({ n: 1 });
      expect(large!.type).to.equal('Large');
      expect(large!.data).to.deep.equal({});
      const [, full] = await store.readAll();
      expect(full!.data).to.deep.equal({ rows: 'x'.repeat(10_000) });
    } finally {
      await store.close();
      await database.close();
    }
  });
});

describe('postgres adapter: a subscriber that acts on few types', () => {
  it('gets only those, and is told how far it read past the others, as the log grows', async () => {
    const database = await freshDatabase();
    const store = createPostgresEventStore(database.db);
    const other = (n: number) => ({ type: 'Other', data: { n } });
    const passed: Position[] = [];
    const seen: RecordedEvent[] = [];
    const subscription = store.subscribeToAll({ batchSize: 2, onlyTypes: ['Wanted'], passed: async (p) => void passed.push(p) });
    const until = async (done: () => boolean) => {
      for (let i = 0; i < 200 && !done(); i++) await sleep(25);
    };
    try {
      await store.append('log-1', [{ type: 'Wanted', data: { n: 1 } }, other(1), other(2), { type: 'Wanted', data: { n: 2 } }, { type: 'Wanted', data: { n: 3 } }, other(3)], 'no_stream');
      const reading = (async () => {
        for await (const batch of subscription) seen.push(...batch);
      })();
      const first = await store.headPosition();
      await until(() => passed.some((p) => comparePositions(p, first) === 0));
      expect(seen.map((e) => e.data)).to.deep.equal([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect(passed.at(-1)).to.deep.equal(first);
      // Given only other events after, when they are appended, then the reader is told it passed them.
      await store.append('log-2', [other(4), other(5)], 'no_stream');
      const second = await store.headPosition();
      await until(() => passed.some((p) => comparePositions(p, second) === 0));
      expect(passed.at(-1)).to.deep.equal(second);
      expect(seen).to.have.length(3);
      await subscription.stop();
      await reading;
    } finally {
      await subscription.stop();
      await store.close();
      await database.close();
    }
  });
});

describe('postgres adapter: a transaction that commits late', () => {
  // Deterministic form of the sequence-gap race: an early global position held open by a slow
  // transaction while a later one commits and is read.
  if (engineUnderTest !== 'postgres') return;

  it('is delivered after the later-numbered event, never skipped', async function () {
    this.timeout(20_000);
    const database = await freshDatabase();
    const store = createPostgresEventStore(database.db);
    try {
      const head = await store.headPosition();
      let releaseSlow!: () => void;
      const slowHolding = new Promise<void>((resolve) => (releaseSlow = resolve));
      let slowInserted!: () => void;
      const inserted = new Promise<void>((resolve) => (slowInserted = resolve));
      const slow = database.db.transaction().execute(async (trx) => {
        await sql`select ${eventWriterLock()}`.execute(trx);
        await trx
          .insertInto('events')
          .values({ stream_id: 'late-1', stream_revision: 0, event_id: crypto.randomUUID(), event_type: 'Late', data: '{}', metadata: '{}' })
          .execute();
        slowInserted();
        await slowHolding;
      });
      await inserted;
      await store.append('early-1', [{ type: 'Early', data: {} }], 'no_stream');
      const whileOpen = await store.readAll({ after: head });
      expect(whileOpen.map((e) => e.type)).to.not.include('Early');
      releaseSlow();
      await slow;
      const after = await store.readAll({ after: head });
      expect(after.map((e) => e.type)).to.deep.equal(['Late', 'Early']);
    } finally {
      await store.close();
      await database.close();
    }
  });
});

describe('postgres adapter: transactions that append no events', () => {
  // A backup or another application sharing the server, or a projection batch of this service, must
  // not hold back this service's readers.
  if (engineUnderTest !== 'postgres') return;

  it('in this database, do not hold back what was appended meanwhile', async () => {
    const database = await freshDatabase();
    const store = createPostgresEventStore(database.db);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const writing = new Promise<void>((resolve) => (written = resolve));
    const projectionBatch = database.db.transaction().execute(async (trx) => {
      // A projection batch writes read-model rows: it has a transaction id, as this one does.
      await sql`select pg_current_xact_id()`.execute(trx);
      written();
      await released;
      throw new Error('rolled back on purpose');
    });
    try {
      await writing;
      const head = await store.headPosition();
      await store.append('favorites-1', [{ type: 'FavoriteAdded', data: {} }], 'no_stream');
      expect((await store.readAll({ after: head })).map((e) => e.type)).to.deep.equal(['FavoriteAdded']);
    } finally {
      release();
      await projectionBatch.catch(() => undefined);
      await store.close();
      await database.close();
    }
  });

  it('in another database of the cluster, do not hold back what this database has committed', async () => {
    const neighbour = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await neighbour.connect();
    const database = await freshDatabase();
    const store = createPostgresEventStore(database.db);
    try {
      await neighbour.query('begin');
      await neighbour.query('select pg_current_xact_id()');
      const head = await store.headPosition();
      await store.append('favorites-1', [{ type: 'FavoriteAdded', data: {} }], 'no_stream');
      const read = await store.readAll({ after: head });
      expect(read.map((e) => e.type)).to.deep.equal(['FavoriteAdded']);
      expect(await store.headPosition()).to.not.deep.equal(head);
    } finally {
      await neighbour.query('rollback');
      await neighbour.end();
      await store.close();
      await database.close();
    }
  });
});
