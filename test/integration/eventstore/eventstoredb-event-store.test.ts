import { createEventStoreDbEventStore } from '../../../infra/eventstore/eventstoredb/eventstoredb-event-store.ts';
import { eventStoreContract } from './event-store.contract.ts';

// Runs where an EventStoreDB server is configured; no server runs on the default test machine.
if (process.env.EVENTSTORE_URL) {
  eventStoreContract(
    'eventstoredb adapter',
    async () => {
      const store = createEventStoreDbEventStore(process.env.EVENTSTORE_URL!);
      return { store, close: () => store.close() };
    },
    { concurrentWriters: true },
  );
}
