import type { Generated } from 'kysely';

/** auth_attempts: what the login and registration throttles count, shared by every api process. */
export interface AuthAttemptsTable {
  id: Generated<number>;
  key: string;
  at_ms: number;
}
