import type { Request } from 'express';
import { Forbidden, Unauthorized } from '../../shared/errors.ts';
import type { Role, SessionUser } from '../../shared/users.ts';
import { SESSION_COOKIE, type SessionResolver } from '../auth/session.ts';
import type { Access } from './define-route.ts';

/** What a 403 says for each access level that a signed-in role can fall short of. */
export const ROLE_REQUIRED: Partial<Record<Access, string>> = {
  staff: 'Staff or admin role required',
  admin: 'Admin role required',
};

const ALLOWED: Record<Exclude<Access, 'public' | 'user'>, readonly Role[]> = { staff: ['staff', 'admin'], admin: ['admin'] };

/** 401 without a valid session, 403 with a valid one that lacks the role. */
export async function authorize(req: Request, access: Access, sessions: SessionResolver): Promise<SessionUser | null> {
  const user = await sessions.resolve(req.cookies?.[SESSION_COOKIE]);
  if (access === 'public') return user;
  if (!user) throw new Unauthorized();
  if (access !== 'user' && !ALLOWED[access].includes(user.role)) throw new Forbidden(ROLE_REQUIRED[access]);
  return user;
}
