import { TooManyRequests } from '../../shared/errors.ts';

const WINDOW_MS = 15 * 60 * 1000;
const MAX_PER_ACCOUNT_AND_ADDRESS = 5;
const MAX_PER_ADDRESS = 30;

/**
 * Throttles failed logins per (username, address) and per address. Failures from one address
 * never lock the account for another address, so an attacker cannot keep its owner out.
 */
export function createLoginThrottle(now: () => number = Date.now) {
  const failures = new Map<string, number[]>();

  const recent = (key: string) => {
    const times = (failures.get(key) ?? []).filter((t) => now() - t < WINDOW_MS);
    if (times.length === 0) failures.delete(key);
    else failures.set(key, times);
    return times;
  };
  const keys = (username: string, address: string) => [
    { key: `u:${username.toLowerCase()}|${address}`, max: MAX_PER_ACCOUNT_AND_ADDRESS },
    { key: `a:${address}`, max: MAX_PER_ADDRESS },
  ];

  return {
    /** Throws 429 with Retry-After when this attempt must wait. */
    check(username: string, address: string): void {
      for (const { key, max } of keys(username, address)) {
        const times = recent(key);
        if (times.length >= max) throw new TooManyRequests('Too many failed logins, try again later', (times[0]! + WINDOW_MS - now()) / 1000);
      }
    },
    failed(username: string, address: string): void {
      for (const { key } of keys(username, address)) failures.set(key, [...recent(key), now()]);
    },
    succeeded(username: string, address: string): void {
      failures.delete(keys(username, address)[0]!.key);
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
