import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { Secrets } from '../secrets.ts';
import { type CredentialStore, createCredentialStore } from '../credentials/credential-store.ts';
import { type LoginThrottle, createLoginThrottle } from './login-throttle.ts';
import { type RegistrationThrottle, createRegistrationThrottle } from './registration-throttle.ts';
import { sharedAttemptLog } from './shared-attempt-log.ts';
import { OWASP_SCRYPT, type PasswordHasher, createPasswordHasher } from './password-hasher.ts';
import { type SessionCache, createSessionCache } from './session-cache.ts';
import { type SessionTokens, createSessionTokens } from './session-tokens.ts';

export interface AuthServices {
  credentials: CredentialStore;
  hasher: PasswordHasher;
  tokens: SessionTokens;
  sessions: SessionCache;
  throttle: LoginThrottle;
  registrations: RegistrationThrottle;
}

/**
 * `scryptN` lowers the hashing cost for the test suite only (PASSWORD_SCRYPT_N); production keeps
 * OWASP's 2^17. `sharedThrottles`: several processes share the database, so the throttles count
 * there rather than in each process.
 */
export function createAuthServices(
  db: Kysely<Database>,
  secrets: Secrets,
  options: { projectsUsers: boolean; scryptN?: number; announceRevocation?: (key: string, sessionVersion: number) => Promise<void>; sharedThrottles?: boolean },
): AuthServices {
  const tokens = createSessionTokens(secrets.jwtSecret);
  return {
    credentials: createCredentialStore(db, secrets.secretKey),
    hasher: createPasswordHasher({ ...OWASP_SCRYPT, N: options.scryptN ?? OWASP_SCRYPT.N }),
    tokens,
    sessions: createSessionCache(db, tokens, { ttlMs: options.projectsUsers ? 10 * 60_000 : 5_000, announce: options.announceRevocation }),
    throttle: createLoginThrottle(Date.now, options.sharedThrottles ? sharedAttemptLog(db, 'login') : undefined),
    registrations: createRegistrationThrottle(Date.now, options.sharedThrottles ? sharedAttemptLog(db, 'registration') : undefined),
  };
}
