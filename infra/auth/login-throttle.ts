import { TooManyRequests } from '../../shared/errors.ts';

const WINDOW_MS = 15 * 60 * 1000;
const MAX_PER_ACCOUNT_AND_ADDRESS = 5;
const MAX_PER_ADDRESS = 30;
/** Past this many tracked keys, expired ones are swept, then the least recent dropped: memory stays bounded. */
const MAX_KEYS = 50_000;

export interface LoginAttempt {
  /** The password was right: the attempt no longer counts, and the account's failures from this address are forgotten. */
  succeeded(): void;
}

/**
 * Throttles password checks per (username, address) and per address. Failures from one address
 * never lock the account for another address, so an attacker cannot keep its owner out.
 * State is per process.
 */
export function createLoginThrottle(now: () => number = Date.now, options: { maxKeys?: number } = {}) {
  const failures = new Map<string, number[]>();
  const maxKeys = options.maxKeys ?? MAX_KEYS;

  const recent = (key: string) => {
    const times = (failures.get(key) ?? []).filter((t) => now() - t < WINDOW_MS);
    if (times.length === 0) failures.delete(key);
    else failures.set(key, times);
    return times;
  };
  /** Moves the key to the end, so the least recently failed keys are the first dropped. */
  const record = (key: string, at: number) => {
    const times = [...recent(key), at];
    failures.delete(key);
    failures.set(key, times);
  };
  /** Keys are only re-read when asked about again: a flood of one-off addresses would otherwise pile up. */
  const bound = () => {
    if (failures.size <= maxKeys) return;
    for (const key of [...failures.keys()]) recent(key);
    for (const key of failures.keys()) {
      if (failures.size <= maxKeys) break;
      failures.delete(key);
    }
  };
  const forgetOne = (key: string, at: number) => {
    const times = failures.get(key) ?? [];
    const index = times.indexOf(at);
    if (index >= 0) times.splice(index, 1);
    if (times.length === 0) failures.delete(key);
  };

  return {
    /**
     * Starts a password check: throws 429 with Retry-After when it must wait, else counts it as a
     * failure at once, so a burst of simultaneous guesses cannot all slip past the count, until
     * `succeeded()` takes it back.
     */
    attempt(username: string, address: string): LoginAttempt {
      const pair = { key: `u:${username.toLowerCase()}|${address}`, max: MAX_PER_ACCOUNT_AND_ADDRESS };
      const perAddress = { key: `a:${address}`, max: MAX_PER_ADDRESS };
      for (const { key, max } of [pair, perAddress]) {
        const times = recent(key);
        if (times.length >= max) throw new TooManyRequests('Too many failed logins, try again later', (times[0]! + WINDOW_MS - now()) / 1000);
      }
      const at = now();
      record(pair.key, at);
      record(perAddress.key, at);
      bound();
      return {
        succeeded() {
          failures.delete(pair.key);
          forgetOne(perAddress.key, at);
        },
      };
    },
    /** How many (username, address) and address keys are tracked (monitoring, tests). */
    get trackedKeys(): number {
      return failures.size;
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
