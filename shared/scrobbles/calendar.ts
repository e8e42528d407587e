/**
 * UTC calendar arithmetic on scrobble timestamps (seconds since the epoch). Days are whole days
 * since the epoch, so that consecutive days differ by one.
 */
export const DAY_SECONDS = 86_400;

export const dayOf = (uts: number) => Math.floor(uts / DAY_SECONDS);
export const hourOf = (uts: number) => Math.floor((uts - dayOf(uts) * DAY_SECONDS) / 3600);
/** Monday = 0 … Sunday = 6; the epoch's first day was a Thursday. */
export const weekdayOfDay = (day: number) => (((day + 3) % 7) + 7) % 7;

export const isoDate = (day: number) => new Date(day * DAY_SECONDS * 1000).toISOString().slice(0, 10);
export const isoMonth = (day: number) => isoDate(day).slice(0, 7);
export const isoTime = (uts: number) => new Date(uts * 1000).toISOString();

/**
 * A rolling window of `windowDays` days ending now, as the first second it covers; null means all
 * time (the interface's "omitted, zero or negative").
 */
export function windowStart(windowDays: number | undefined, nowUts: number): number | null {
  if (windowDays === undefined || windowDays <= 0) return null;
  return nowUts - windowDays * DAY_SECONDS;
}
