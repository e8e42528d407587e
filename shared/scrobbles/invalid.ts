import { z } from 'zod';

/**
 * Scrobbles with impossible timestamps, bucketed by kind: `zero` (uts 0, a client that sent no
 * time), `before_service` (before 2002-01-01, when the scrobbler did not exist yet), `future` (more
 * than a day after the moment it was imported; a day absorbs clock skew and time zones).
 * Classified against the import time, not the clock, so a replayed log classifies the same.
 */
export const INVALID_KINDS = ['zero', 'before_service', 'future'] as const;
export type InvalidKind = (typeof INVALID_KINDS)[number];
/** A bucket filter of the admin's invalid-scrobble routes: one bucket or `all`. */
export const InvalidKindFilter = z.enum(['all', ...INVALID_KINDS]);

export const SERVICE_START_UTS = Date.UTC(2002, 0, 1) / 1000;
const FUTURE_TOLERANCE_S = 24 * 60 * 60;

export function classifyScrobble(uts: number, importedAtMs: number): InvalidKind | null {
  if (uts === 0) return 'zero';
  if (uts < SERVICE_START_UTS) return 'before_service';
  if (uts > importedAtMs / 1000 + FUTURE_TOLERANCE_S) return 'future';
  return null;
}
