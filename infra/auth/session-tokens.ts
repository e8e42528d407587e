import jwt from 'jsonwebtoken';

export const SESSION_TTL_SECONDS = 14 * 24 * 3600;

export interface SessionClaims {
  /** Username key. */
  sub: string;
  /** The user's session version when issued: a later session-ending event voids the token. */
  sv: number;
}

/** HS256 only: `alg: none` and tokens signed with another algorithm or key are refused. */
export function createSessionTokens(secret: string) {
  return {
    issue(claims: SessionClaims): string {
      return jwt.sign(claims, secret, { algorithm: 'HS256', expiresIn: SESSION_TTL_SECONDS });
    },
    verify(token: string): SessionClaims | null {
      try {
        const payload = jwt.verify(token, secret, { algorithms: ['HS256'] });
        // Every token we issue expires: one without `exp` was not issued here.
        if (typeof payload !== 'object' || typeof payload.exp !== 'number' || typeof payload.sub !== 'string' || typeof payload.sv !== 'number') return null;
        return { sub: payload.sub, sv: payload.sv };
      } catch {
        return null;
      }
    },
  };
}

export type SessionTokens = ReturnType<typeof createSessionTokens>;
