/**
 * Scrobbles with impossible timestamps. They stay in the log (an admin may purge them) but never
 * count in dashboards. The reference time is the import's own time, not the clock, so replaying the
 * log classifies every scrobble exactly as it did live.
 */
export const INVALID_KINDS = ['zero', 'before_service', 'future'] as const;
export type InvalidKind = (typeof INVALID_KINDS)[number];

/** 2002-01-01 UTC: the scrobbler did not exist before. */
export const SERVICE_START_UTS = Date.UTC(2002, 0, 1) / 1000;
/** Clocks drift and time zones confuse players: up to a day ahead is tolerated. */
export const FUTURE_TOLERANCE_SECONDS = 86_400;

export function invalidKind(uts: number, referenceUts: number): InvalidKind | null {
  if (uts === 0) return 'zero';
  if (uts < SERVICE_START_UTS) return 'before_service';
  if (uts > referenceUts + FUTURE_TOLERANCE_SECONDS) return 'future';
  return null;
}
