import { KeptPerDatabase } from '../../shared/kept-per-database.ts';
import type { Owner } from './listening.queries.ts';

/**
 * Each listener's all-time plays per day as the JSON text last answered, with the dashboard
 * projector's place it was read at: while the projector stands there, the series is the same.
 */
interface KeptSeries {
  at: string;
  text: string;
}

/** A million scrobbles every 3 minutes make about 70 kB of days: 100 listeners, about 7 MB; the least recently read go first. */
const kept = new KeptPerDatabase<KeptSeries>(100);

const keyOf = (owner: Owner) => `${owner.user_key}\n${owner.listener}`;

export function recallSeries(db: object, owner: Owner, at: string): string | undefined {
  const series = kept.get(db, keyOf(owner));
  if (series?.at !== at) return undefined;
  kept.set(db, keyOf(owner), series);
  return series.text;
}

export function rememberSeries(db: object, owner: Owner, at: string, text: string): void {
  kept.set(db, keyOf(owner), { at, text });
}
