/**
 * UTC calendar arithmetic on scrobble timestamps (seconds since the epoch). Days are whole days
 * since the epoch, so that consecutive days differ by one.
 */
export const DAY_SECONDS = 86_400;

export const dayOf = (uts: number) => Math.floor(uts / DAY_SECONDS);
export const hourOf = (uts: number) => Math.floor((uts - dayOf(uts) * DAY_SECONDS) / 3600);
/** Monday = 0 … Sunday = 6; the epoch's first day was a Thursday. */
export const weekdayOfDay = (day: number) => (((day + 3) % 7) + 7) % 7;

/** Calendar months since 1970-01 (0 = January 1970). */
export function monthOfDay(day: number): number {
  const d = new Date(day * DAY_SECONDS * 1000);
  return (d.getUTCFullYear() - 1970) * 12 + d.getUTCMonth();
}
export const monthStartDay = (month: number) => Math.floor(Date.UTC(1970 + Math.floor(month / 12), month % 12, 1) / 1000 / DAY_SECONDS);
export const isoMonthOf = (month: number) => isoDate(monthStartDay(month)).slice(0, 7);

export const isoDate = (day: number) => new Date(day * DAY_SECONDS * 1000).toISOString().slice(0, 10);
export const isoTime = (uts: number) => new Date(uts * 1000).toISOString();

/**
 * `days` days before `nowUts`, never before the epoch: no valid scrobble lies there, and a
 * timestamp below -2^31 would overflow the `integer` column it is compared with.
 */
export const daysBefore = (nowUts: number, days: number) => Math.max(0, nowUts - days * DAY_SECONDS);

/**
 * A rolling window of `windowDays` days ending now, as the first second it covers; null means all
 * time (the interface's "omitted, zero or negative").
 */
export function windowStart(windowDays: number | undefined, nowUts: number): number | null {
  if (windowDays === undefined || windowDays <= 0) return null;
  return daysBefore(nowUts, windowDays);
}
