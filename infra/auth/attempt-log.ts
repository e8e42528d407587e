import { TooManyRequests } from '../../shared/errors.ts';

/** Past this many tracked keys, expired ones are swept, then the least recent dropped: memory stays bounded. */
const MAX_KEYS = 50_000;

export interface Limit {
  key: string;
  max: number;
}

/**
 * The times of recent attempts per key (an address, a username and address) within a sliding
 * window: what the throttles of costly calls count. One per process (./attempt-log.ts), or one
 * shared by every process on a PostgreSQL database (./shared-attempt-log.ts).
 */
export interface AttemptLog {
  /**
   * Counts one attempt now under every key of `limits`, unless one is at its limit: then 429 with
   * Retry-After (when that key's oldest counted attempt leaves the window) and nothing counted.
   * Checking and counting are one step, so simultaneous attempts cannot all slip past the count.
   */
  admit(limits: Limit[], message: string): Promise<number>;
  forget(key: string): Promise<void>;
  /** Takes back the attempt counted at `at`. */
  forgetOne(key: string, at: number): Promise<void>;
}

export type AttemptLogFactory = (windowMs: number, now: () => number) => AttemptLog;

/** Refuses with the wait until the oldest counted attempt of a key at its limit leaves the window. */
export function refusal(message: string, oldest: number, windowMs: number, now: number): TooManyRequests {
  return new TooManyRequests(message, (oldest + windowMs - now) / 1000);
}

/** The attempt log of one process: memory stays bounded (`maxKeys`). */
export function createAttemptLog(windowMs: number, now: () => number, maxKeys = MAX_KEYS): AttemptLog & { readonly size: number } {
  const attempts = new Map<string, number[]>();

  const recent = (key: string) => {
    const times = (attempts.get(key) ?? []).filter((t) => now() - t < windowMs);
    if (times.length === 0) attempts.delete(key);
    else attempts.set(key, times);
    return times;
  };
  /** Keys are only re-read when asked about again: a flood of one-off addresses would otherwise pile up. */
  const bound = () => {
    if (attempts.size <= maxKeys) return;
    for (const key of [...attempts.keys()]) recent(key);
    for (const key of attempts.keys()) {
      if (attempts.size <= maxKeys) break;
      attempts.delete(key);
    }
  };

  return {
    async admit(limits, message) {
      for (const { key, max } of limits) {
        const times = recent(key);
        if (times.length >= max) throw refusal(message, times[0]!, windowMs, now());
      }
      const at = now();
      // The most recently counted keys are the last dropped.
      for (const { key } of limits) {
        const times = [...recent(key), at];
        attempts.delete(key);
        attempts.set(key, times);
      }
      bound();
      return at;
    },
    async forget(key) {
      attempts.delete(key);
    },
    async forgetOne(key, at) {
      const times = attempts.get(key) ?? [];
      const index = times.indexOf(at);
      if (index >= 0) times.splice(index, 1);
      if (times.length === 0) attempts.delete(key);
    },
    get size(): number {
      return attempts.size;
    },
  };
}
