import { createAttemptLog } from './attempt-log.ts';

const WINDOW_MS = 15 * 60 * 1000;
const MAX_PER_ACCOUNT_AND_ADDRESS = 5;
const MAX_PER_ADDRESS = 30;

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
  const failures = createAttemptLog(WINDOW_MS, now, options.maxKeys);

  return {
    /**
     * Starts a password check: throws 429 with Retry-After when it must wait, else counts it as a
     * failure at once, so a burst of simultaneous guesses cannot all slip past the count, until
     * `succeeded()` takes it back.
     */
    attempt(username: string, address: string): LoginAttempt {
      const pair = `u:${username.toLowerCase()}|${address}`;
      const perAddress = `a:${address}`;
      failures.refuseAtLimit(
        [
          { key: pair, max: MAX_PER_ACCOUNT_AND_ADDRESS },
          { key: perAddress, max: MAX_PER_ADDRESS },
        ],
        'Too many failed logins, try again later',
      );
      const at = failures.record([pair, perAddress]);
      return {
        succeeded() {
          failures.forget(pair);
          failures.forgetOne(perAddress, at);
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
