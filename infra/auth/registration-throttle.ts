import { type AttemptLogFactory, createAttemptLog } from './attempt-log.ts';

const WINDOW_MS = 60 * 60 * 1000;
/** A household registers a handful of accounts; past this an address is flooding, not joining. */
const MAX_PER_ADDRESS = 10;

/**
 * Throttles self-registration per client address: each call costs an OWASP-strength scrypt
 * (128 MiB, a good part of a core for a moment), so one address cannot make the service hash on
 * its behalf without end. Every call counts, refused ones included (they hashed too), and it counts
 * before the hash, so a burst cannot slip past. Counted per process, or in the database when
 * several processes share it.
 */
export function createRegistrationThrottle(now: () => number = Date.now, attemptLog: AttemptLogFactory = createAttemptLog) {
  const registrations = attemptLog(WINDOW_MS, now);
  return {
    async attempt(address: string): Promise<void> {
      await registrations.admit([{ key: address, max: MAX_PER_ADDRESS }], 'Too many registrations from this address, try again later');
    },
  };
}

export type RegistrationThrottle = ReturnType<typeof createRegistrationThrottle>;
