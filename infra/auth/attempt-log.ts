import { TooManyRequests } from '../../shared/errors.ts';

/** Past this many tracked keys, expired ones are swept, then the least recent dropped: memory stays bounded. */
const MAX_KEYS = 50_000;

/**
 * The times of recent attempts per key (an address, a username and address) within a sliding
 * window: what the throttles of costly calls count. State is per process.
 */
export function createAttemptLog(windowMs: number, now: () => number, maxKeys = MAX_KEYS) {
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
    /** 429 with Retry-After (when the oldest counted attempt leaves the window) if a key is at its limit. */
    refuseAtLimit(limits: { key: string; max: number }[], message: string): void {
      for (const { key, max } of limits) {
        const times = recent(key);
        if (times.length >= max) throw new TooManyRequests(message, (times[0]! + windowMs - now()) / 1000);
      }
    },
    /** Counts one attempt now under each key; the most recently counted keys are the last dropped. */
    record(keys: string[]): number {
      const at = now();
      for (const key of keys) {
        const times = [...recent(key), at];
        attempts.delete(key);
        attempts.set(key, times);
      }
      bound();
      return at;
    },
    forget(key: string): void {
      attempts.delete(key);
    },
    /** Takes back one counted attempt. */
    forgetOne(key: string, at: number): void {
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
