import type { AllSubscription, DataSelection, Position, ReadAllOptions, RecordedEvent } from './event-store.ts';

interface PollingOptions extends DataSelection {
  readAll(options: ReadAllOptions): Promise<RecordedEvent[]>;
  after: Position;
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
        const batch = await options.readAll({ after: position, maxCount: options.batchSize, withDataOf: options.withDataOf });
        if (stopper.signal.aborted) return;
        if (batch.length === 0) {
          await options.waitForAppend(stopper.signal);
          continue;
        }
        position = batch[batch.length - 1]!.position;
        yield batch;
      }
    },
  };
}
