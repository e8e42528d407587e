import { createSecretKey } from 'node:crypto';
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
  // A key object, made once: given a string, jsonwebtoken first tries to parse it as a PEM public
  // key on every call, and that failed parse cost about 1.5 ms of CPU per authenticated request.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  return {
    issue(claims: SessionClaims): string {
      return jwt.sign(claims, key, { algorithm: 'HS256', expiresIn: SESSION_TTL_SECONDS });
    },
    verify(token: string): SessionClaims | null {
      try {
        const payload = jwt.verify(token, key, { algorithms: ['HS256'] });
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
