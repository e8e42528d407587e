import { type AttemptLogFactory, createAttemptLog } from './attempt-log.ts';

const WINDOW_MS = 15 * 60 * 1000;
const MAX_PER_ACCOUNT_AND_ADDRESS = 5;
const MAX_PER_ADDRESS = 30;

export interface LoginAttempt {
  /** The password was right: the attempt no longer counts, and the account's failures from this address are forgotten. */
  succeeded(): Promise<void>;
}

/**
 * Throttles password checks per (username, address) and per address. Failures from one address
 * never lock the account for another address, so an attacker cannot keep its owner out. The
 * attempts are counted per process, or in the database when several processes share it.
 */
export function createLoginThrottle(now: () => number = Date.now, attemptLog: AttemptLogFactory = createAttemptLog) {
  const failures = attemptLog(WINDOW_MS, now);

  return {
    /**
     * Starts a password check: 429 with Retry-After when it must wait, else counts it as a failure
     * at once, so a burst of simultaneous guesses cannot all slip past the count, until
     * `succeeded()` takes it back.
     */
    async attempt(username: string, address: string): Promise<LoginAttempt> {
      const pair = `u:${username.toLowerCase()}|${address}`;
      const perAddress = `a:${address}`;
      const at = await failures.admit(
        [
          { key: pair, max: MAX_PER_ACCOUNT_AND_ADDRESS },
          { key: perAddress, max: MAX_PER_ADDRESS },
        ],
        'Too many failed logins, try again later',
      );
      return {
        async succeeded() {
          await failures.forget(pair);
          await failures.forgetOne(perAddress, at);
        },
      };
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
