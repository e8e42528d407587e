import type { Owner } from './listening.queries.ts';

/**
 * Each listener's all-time plays per day as the JSON text last answered, with the dashboard
 * projector's place it was read at: while the projector stands there, the series is the same.
 */
interface KeptSeries {
  at: string;
  text: string;
}

/** A million scrobbles every 3 minutes make about 70 kB of days: 100 listeners, about 7 MB. */
const MAX_LISTENERS = 100;
// Per database handle: tests run several services, each on its own database, in one process.
const kept = new WeakMap<object, Map<string, KeptSeries>>();

const keyOf = (owner: Owner) => `${owner.user_key}\n${owner.listener}`;

export function recallSeries(db: object, owner: Owner, at: string): string | undefined {
  const series = kept.get(db)?.get(keyOf(owner));
  if (series?.at !== at) return undefined;
  rememberSeries(db, owner, at, series.text);
  return series.text;
}

export function rememberSeries(db: object, owner: Owner, at: string, text: string): void {
  let byListener = kept.get(db);
  if (!byListener) kept.set(db, (byListener = new Map()));
  byListener.delete(keyOf(owner));
  byListener.set(keyOf(owner), { at, text });
  // The least recently read go first (the map's order is that of reading).
  if (byListener.size > MAX_LISTENERS) byListener.delete(byListener.keys().next().value!);
}
