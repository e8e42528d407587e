import type { Response } from 'express';
import type { AppContext } from '../../infra/context.ts';
import { SESSION_COOKIE } from '../../infra/auth/session.ts';
import { SESSION_TTL_SECONDS } from '../../infra/auth/session-tokens.ts';
import { usernameKey } from '../../shared/usernames.ts';

/** `media_session`: the signed session, HttpOnly, SameSite=Lax, Path=/, Secure when configured. */
export function setSessionCookie(ctx: AppContext, res: Response, username: string, sessionVersion: number): void {
  const token = ctx.auth.tokens.issue({ sub: usernameKey(username), sv: sessionVersion });
  res.cookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: ctx.config.COOKIE_SECURE,
    maxAge: SESSION_TTL_SECONDS * 1000,
  });
}

export function clearSessionCookie(ctx: AppContext, res: Response): void {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure: ctx.config.COOKIE_SECURE });
}
