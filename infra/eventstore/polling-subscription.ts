import { type AllSubscription, type DataSelection, type Position, type ReadAllOptions, type RecordedEvent, comparePositions } from './event-store.ts';

/** A read of the log that may keep only the events of `types` (the others are left out). */
export type TypedReadOptions = ReadAllOptions & { types?: readonly string[] };

interface PollingOptions extends DataSelection {
  readAll(options: TypedReadOptions): Promise<RecordedEvent[]>;
  after: Position;
  /** With `headPosition`: reads only these types, and tells `passed` how far it read past the others. */
  onlyTypes?: readonly string[];
  headPosition(): Promise<Position>;
  passed?: (position: Position) => Promise<void>;
  batchSize: number;
  /** Resolves when new events may be there (or the signal aborts). */
  waitForAppend(signal: AbortSignal): Promise<void>;
}

/** A catch-up subscription built on reads: read until empty, then wait for appends, and repeat. */
export function pollingSubscription(options: PollingOptions): AllSubscription {
  const stopper = new AbortController();
  let position = options.after;
  return {
    async stop() {
      stopper.abort();
    },
    async *[Symbol.asyncIterator]() {
      while (!stopper.signal.aborted) {
        // Filtered, a short batch does not say how far the read went: the head taken before it does
        // (every event up to it is below the read's horizon too).
        const head = options.onlyTypes ? await options.headPosition() : undefined;
        const batch = await options.readAll({ after: position, maxCount: options.batchSize, withDataOf: options.withDataOf, types: options.onlyTypes });
        if (stopper.signal.aborted) return;
        if (batch.length > 0) {
          position = batch[batch.length - 1]!.position;
          yield batch;
        }
        if (head && batch.length < options.batchSize && comparePositions(head, position) > 0) {
          position = head;
          await options.passed?.(head);
        }
        if (batch.length === 0) await options.waitForAppend(stopper.signal);
      }
    },
  };
}
