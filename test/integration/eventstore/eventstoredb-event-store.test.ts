import { createEventStoreDbEventStore } from '../../../infra/eventstore/eventstoredb/eventstoredb-event-store.ts';
import { startEventStoreDb } from '../../fakes/eventstoredb/server.ts';
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
