import type { EventStore } from '../eventstore/event-store.ts';
import { type Lane, leaderOf } from './lanes.ts';

/**
 * Resolves once the log moves past the live lane, a failing projector's next attempt falls due
 * (attempts due by `steppedAt` had their turn), or `signal` aborts (a rebuild, stop). With every
 * projector failing or stalled, new events change nothing, so only the other two wake it.
 */
export async function waitForLog(store: EventStore, lanes: Lane[], steppedAt: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  const live = leaderOf(lanes.filter((l) => !l.failure));
  // Only to learn that the log moved: the next batch reads the events themselves.
  const subscription = live && store.subscribeToAll({ after: live.position, batchSize: 1, withDataOf: [] });
  let stopWaiting = () => {};
  const waited = new Promise<void>((resolve) => (stopWaiting = resolve));
  signal.addEventListener('abort', stopWaiting, { once: true });
  const retryAt = Math.min(...lanes.map((l) => l.failure?.retryAt ?? Infinity).filter((t) => t > steppedAt));
  const timer = Number.isFinite(retryAt) ? setTimeout(stopWaiting, Math.max(0, retryAt - Date.now())) : undefined;
  const moved =
    subscription &&
    (async () => {
      for await (const _ of subscription) break;
    })();
  try {
    await Promise.race(moved ? [waited, moved] : [waited]);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', stopWaiting);
    await subscription?.stop();
    await moved;
  }
}
