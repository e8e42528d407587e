import { expect } from 'chai';
import { type EventStore, WrongExpectedVersionError, comparePositions } from '../../../infra/eventstore/event-store.ts';
import { createEventStoreDbEventStore } from '../../../infra/eventstore/eventstoredb/eventstoredb-event-store.ts';
import { type DoubleOptions, type EventStoreDbDouble, startEventStoreDb } from '../../fakes/eventstoredb/server.ts';
import { eventStoreContract } from './event-store.contract.ts';

eventStoreContract(
  'eventstoredb adapter on the gRPC double',
  async () => {
    const server = await startEventStoreDb();
    const store = createEventStoreDbEventStore(server.url);
    return {
      store,
      async close() {
        await store.close();
        await server.close();
      },
    };
  },
  { concurrentWriters: true },
);

// Where a real server is configured, the same contract runs against it too.
if (process.env.EVENTSTORE_URL) {
  eventStoreContract(
    'eventstoredb adapter on EVENTSTORE_URL',
    async () => {
      const store = createEventStoreDbEventStore(process.env.EVENTSTORE_URL!);
      return { store, close: () => store.close() };
    },
    { concurrentWriters: true },
  );
}

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

const played = (n: number) => ({ type: 'TrackPlayed', data: { n } });

for (const [path, options] of [
  ['BatchAppend (servers since 21.10)', {}],
  ['Append (older servers, or a call with its own credentials)', { batchAppend: false }],
] as [string, DoubleOptions][]) {
  describe(`eventstoredb adapter: appends through ${path}`, () => {
    let server: EventStoreDbDouble;
    let store: EventStore;
    before(async () => {
      server = await startEventStoreDb({ ...options, maxAppendSize: 64 * 1024 });
      store = createEventStoreDbEventStore(server.url);
    });
    after(async () => {
      await store.close();
      await server.close();
    });

    it('a conflict reports the revision the stream is at, or that it does not exist', async () => {
      await store.append('plays-1', [played(1), played(2)], 'no_stream');
      const taken = await failureOf(store.append('plays-1', [played(3)], 'no_stream'));
      expect(taken).to.be.instanceOf(WrongExpectedVersionError).and.include({ actual: 1, expected: 'no_stream' });
      const stale = await failureOf(store.append('plays-1', [played(3)], 0));
      expect(stale).to.be.instanceOf(WrongExpectedVersionError).and.include({ actual: 1, expected: 0 });
      const missing = await failureOf(store.append('plays-2', [played(1)], 'stream_exists'));
      expect(missing).to.be.instanceOf(WrongExpectedVersionError).and.include({ actual: 'no_stream' });
      expect((await store.append('plays-1', [played(3)], 1)).nextRevision).to.equal(2);
    });

    it('an append over the server\'s maximum append size is refused whole, saying so', async () => {
      const rows = 'x'.repeat(10_000);
      const error = await failureOf(store.append('plays-3', Array.from({ length: 8 }, () => ({ type: 'TracksSaved', data: { rows } })), 'any'));
      expect(error.message).to.match(/append size/i);
      expect(await store.readStream('plays-3')).to.deep.equal([]);
    });
  });
}

describe('eventstoredb adapter: the server\'s own events', () => {
  it('the head is the newest application event, past the statistics a node keeps writing', async () => {
    const server = await startEventStoreDb();
    const store = createEventStoreDbEventStore(server.url);
    try {
      const { position } = await store.append('plays-1', [played(1)], 'no_stream');
      server.collectStats();
      expect(comparePositions(await store.headPosition(), position)).to.equal(0);
      expect((await store.readAll()).map((e) => e.type)).to.deep.equal(['TrackPlayed']);
    } finally {
      await store.close();
      await server.close();
    }
  });
});
