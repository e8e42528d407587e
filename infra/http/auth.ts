import type { Request } from 'express';
import { Forbidden, Unauthorized } from '../../shared/errors.ts';
import type { Access } from './define-route.ts';

export type Role = 'viewer' | 'staff' | 'admin';

/** What a request knows of its caller: resolved from the session cookie without a database round trip. */
export interface SessionUser {
  username: string;
  role: Role;
}

export const SESSION_COOKIE = 'media_session';

export interface SessionResolver {
  /** The session's user, or null when the token is missing, invalid, expired or revoked. */
  resolve(token: string | undefined): Promise<SessionUser | null>;
}

/** 401 without a valid session, 403 with a valid one that lacks the role. */
export async function authorize(req: Request, access: Access, sessions: SessionResolver): Promise<SessionUser | null> {
  const user = await sessions.resolve(req.cookies?.[SESSION_COOKIE]);
  if (access === 'public') return user;
  if (!user) throw new Unauthorized();
  if (access === 'admin' && user.role !== 'admin') throw new Forbidden('Admin role required');
  return user;
}
