import { AsyncLocalStorage } from 'node:async_hooks';
import { type EventStore, type NewEvent, type Position, comparePositions } from './event-store.ts';

/** Positions kept per context: enough for any request; a long task's older appends fall off (wait for all). */
const KEPT_POSITIONS = 64;

/** What one request or task run appended: the event types, and where its appends ended. */
class AppendLog {
  readonly types = new Set<string>();
  private readonly positions: Position[] = [];
  private furthest: Position | undefined;

  record(events: NewEvent[], position: Position): void {
    for (const event of events) this.types.add(event.type);
    this.positions.push(position);
    if (this.furthest === undefined || comparePositions(position, this.furthest) > 0) this.furthest = position;
    if (this.positions.length > KEPT_POSITIONS) this.positions.shift();
  }

  wrote(position: Position): boolean {
    return this.positions.some((p) => comparePositions(p, position) === 0);
  }

  /** Where the last of its appends ended (the furthest), undefined before the first. */
  last(): Position | undefined {
    return this.furthest;
  }
}

const current = new AsyncLocalStorage<AppendLog>();

/** Runs `work` with an append log of its own (one per HTTP request, one per task run). */
export function withAppendLog<T>(work: () => T): T {
  return current.run(new AppendLog(), work);
}

/**
 * The event types appended in this context, when `position` is where one of its appends ended:
 * read-your-writes then waits only for the projectors of those types. Undefined otherwise (a
 * position this context did not write, or no context): wait for every projector.
 */
export function appendedTypes(position: Position): ReadonlySet<string> | undefined {
  const log = current.getStore();
  return log?.wrote(position) ? log.types : undefined;
}

/** Where this context's appends end (its furthest append), undefined when it appended nothing (or outside a context). */
export function lastAppended(): Position | undefined {
  return current.getStore()?.last();
}

/** The store handed to handlers and tasks: appends are recorded in the caller's append log. */
export function recordingAppends(store: EventStore): EventStore {
  return {
    kind: store.kind,
    async append(streamId, events, expectedRevision) {
      const result = await store.append(streamId, events, expectedRevision);
      current.getStore()?.record(events, result.position);
      return result;
    },
    async appendMany(appends) {
      const result = await store.appendMany(appends);
      current.getStore()?.record(appends.flatMap((a) => a.events), result.position);
      return result;
    },
    readStream: (streamId, options) => store.readStream(streamId, options),
    readAll: (options) => store.readAll(options),
    subscribeToAll: (options) => store.subscribeToAll(options),
    headPosition: () => store.headPosition(),
    close: () => store.close(),
  };
}
