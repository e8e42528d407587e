import { createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { Kept } from '../../shared/kept.ts';

export const SESSION_TTL_SECONDS = 14 * 24 * 3600;

/** Tokens whose signature was checked, kept with their expiry: past this many, the oldest is checked again. */
const VERIFIED_KEPT = 10_000;

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
  // A signature checked once stays good until the token expires; checking it on every request was
  // a tenth of a millisecond of CPU each, as much as a list page's SQL. A token is only kept once
  // it verified, so a forged one is checked every time it comes.
  const verified = new Kept<{ claims: SessionClaims; expiresAtMs: number }>(VERIFIED_KEPT);
  return {
    issue(claims: SessionClaims): string {
      return jwt.sign(claims, key, { algorithm: 'HS256', expiresIn: SESSION_TTL_SECONDS });
    },
    verify(token: string): SessionClaims | null {
      const known = verified.get(token);
      if (known && Date.now() < known.expiresAtMs) return known.claims;
      verified.delete(token);
      try {
        const payload = jwt.verify(token, key, { algorithms: ['HS256'] });
        // Every token we issue expires: one without `exp` was not issued here.
        if (typeof payload !== 'object' || typeof payload.exp !== 'number' || typeof payload.sub !== 'string' || typeof payload.sv !== 'number') return null;
        const claims = { sub: payload.sub, sv: payload.sv };
        verified.keep(token, { claims, expiresAtMs: payload.exp * 1000 });
        return claims;
      } catch {
        return null;
      }
    },
  };
}

export type SessionTokens = ReturnType<typeof createSessionTokens>;
