import type { SessionUser } from '../../shared/users.ts';

export const SESSION_COOKIE = 'media_session';

/** The port the HTTP layer resolves callers through (infra/auth/session-cache.ts implements it). */
export interface SessionResolver {
  /** The session's user, or null when the token is missing, invalid, expired or revoked. */
  resolve(token: string | undefined): Promise<SessionUser | null>;
}
