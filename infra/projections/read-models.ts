import { withAppendLog } from '../eventstore/append-log.ts';
import type { Position } from '../eventstore/event-store.ts';

/**
 * Read-your-writes. `defineRoute` waits after every handler for what the request appended, so a
 * route or command never waits by hand; these are for the few that must see a projection caught up
 * in the middle of their work (a task whose next step reads what it just wrote, a reactor that
 * acts on the read models as of its event, a command guarded by a count in a read model).
 */
export interface ReadModels {
  /**
   * Waits (bounded; then goes on: the write is durable) until the read models include `position`;
   * by default, everything this request or task run appended so far, and then only for the
   * projectors that handle the appended event types.
   */
  catchUp(position?: Position): Promise<void>;
  /**
   * The same for this process's reactors (a favorite carried into the media server's playlist),
   * with a shorter bound; without reactors concerned it returns at once.
   */
  catchUpReactions(position?: Position): Promise<void>;
}

/**
 * A unit of work: runs `work` with an append log of its own, then waits (bounded) for the
 * projectors that handle what it appended, and with `reactions` for the reactors too. Every route
 * handler runs in one (`defineRoute`, reactions included), and so do every task run, every
 * reaction and the first-start bootstrap.
 */
export function unitOfWork<T>(readModels: ReadModels, work: () => Promise<T>, options: { reactions: boolean }): Promise<T> {
  return withAppendLog(async () => {
    const result = await work();
    await readModels.catchUp();
    if (options.reactions) await readModels.catchUpReactions();
    return result;
  });
}
