import {
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  BACKWARDS,
  END,
  EventStoreDBClient,
  StreamNotFoundError,
  excludeSystemEvents,
} from '@eventstore/db-client';
import {
  type AllSubscription,
  type AppendResult,
  type EventStore,
  type Position,
  type ReadAllOptions,
  type RecordedEvent,
  START,
  type StreamAppend,
  type SubscribeOptions,
  comparePositions,
} from '../event-store.ts';
import {
  isSystemEvent,
  readBatches,
  toEventData,
  toExpectedRevision,
  toPortError,
  toPosition,
  toReadPosition,
  toRecordedEvent,
} from './mapping.ts';

/** Same default page as the Postgres adapter, so both behave alike under the contract suite. */
const DEFAULT_MAX_COUNT = 1000;
const HEAD_PAGE = 100;

export function createEventStoreDbEventStore(connectionString: string): EventStore {
  const client = EventStoreDBClient.connectionString(connectionString);

  async function append({ streamId, events, expectedRevision }: StreamAppend): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append needs at least one event');
    try {
      const result = await client.appendToStream(streamId, events.map(toEventData), {
        expectedRevision: toExpectedRevision(expectedRevision),
      });
      if (!result.position) throw new Error(`EventStoreDB returned no position for the append to ${streamId}`);
      return {
        nextRevision: Number(result.nextExpectedRevision),
        position: toPosition(result.position),
      };
    } catch (error) {
      throw toPortError(error, streamId, expectedRevision);
    }
  }

  /**
   * `$all` mixes in system events, and ESDB's `fromPosition` is inclusive: read pages until
   * `maxCount` application events strictly after `after` are in hand, or the log ends.
   */
  async function readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const maxCount = options.maxCount ?? DEFAULT_MAX_COUNT;
    const events: RecordedEvent[] = [];
    let after = options.after ?? START;
    while (events.length < maxCount) {
      const want = maxCount - events.length + 1;
      const page = await collect(client.readAll({ fromPosition: toReadPosition(after), maxCount: want }));
      for (const { event } of page) {
        if (!event || comparePositions(event.position, after) <= 0) continue;
        if (!isSystemEvent(event.type)) events.push(toRecordedEvent(event));
      }
      const last = page[page.length - 1]?.event;
      if (page.length < want || !last) break;
      after = last.position;
    }
    return events.slice(0, maxCount);
  }

  return {
    kind: 'eventstoredb',
    append: (streamId, events, expectedRevision) => append({ streamId, events, expectedRevision }),
    async appendMany(appends) {
      if (appends.length === 0) throw new Error('appendMany needs at least one stream');
      let last!: AppendResult;
      for (const a of appends) last = await append(a);
      return last;
    },
    async readStream(streamId, options = {}) {
      const read = client.readStream(streamId, { fromRevision: BigInt(options.fromRevision ?? 0), maxCount: options.maxCount });
      try {
        const events: RecordedEvent[] = [];
        for await (const { event } of read) if (event) events.push(toRecordedEvent(event));
        return events;
      } catch (error) {
        if (error instanceof StreamNotFoundError) return [];
        throw error;
      }
    },
    readAll,
    subscribeToAll(options: SubscribeOptions = {}): AllSubscription {
      const after = options.after ?? START;
      const batchSize = options.batchSize ?? 500;
      const stopper = new AbortController();
      let subscription: AllStreamSubscription | undefined;
      let unsubscribed: Promise<void> | undefined;
      // Both stop() and the end of iteration release the server-side subscription; once is enough.
      const unsubscribe = () => (unsubscribed ??= subscription?.unsubscribe() ?? Promise.resolve());
      return {
        async stop() {
          stopper.abort();
          await unsubscribe();
        },
        async *[Symbol.asyncIterator]() {
          if (stopper.signal.aborted) return;
          subscription = client.subscribeToAll({ fromPosition: toReadPosition(after), filter: excludeSystemEvents() });
          try {
            for await (const batch of readBatches<AllStreamResolvedEvent>(subscription, batchSize, stopper.signal)) {
              // A subscription from a position should start after it; the filter makes sure of that.
              const events = batch.flatMap(({ event }) =>
                event && comparePositions(event.position, after) > 0 ? [toRecordedEvent(event)] : [],
              );
              if (events.length > 0) yield events;
            }
          } finally {
            await unsubscribe();
          }
        },
      };
    },
    /** The newest application event: a trailing system event is a position no projector ever reaches. */
    async headPosition(): Promise<Position> {
      let before: Position | undefined;
      for (;;) {
        const page = await collect(
          client.readAll({ direction: BACKWARDS, fromPosition: before ?? END, maxCount: HEAD_PAGE }),
        );
        for (const { event } of page) {
          if (!event || (before && comparePositions(event.position, before) >= 0)) continue;
          if (!isSystemEvent(event.type)) return toPosition(event.position);
        }
        const last = page[page.length - 1]?.event;
        if (page.length < HEAD_PAGE || !last) return START;
        before = last.position;
      }
    },
    close: () => client.dispose(),
  };
}

async function collect<T>(read: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of read) items.push(item);
  return items;
}
