import { AsyncLocalStorage } from 'node:async_hooks';

const background = new AsyncLocalStorage<true>();

/**
 * Runs `work` (and everything it starts) as background work: projections, tasks, reactions. On the
 * embedded database, one connection shared with the API, a request's query waiting for the
 * connection goes before every background one, so a request waits for at most the statement or
 * transaction under way, not for a queue of background work.
 */
export function inBackground<T>(work: () => T): T {
  return background.run(true, work);
}

export function isBackground(): boolean {
  return background.getStore() === true;
}
