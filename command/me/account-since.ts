import type { AppContext } from '../../infra/context.ts';
import { accountSince } from '../../projectors/auth/users.reads.ts';
import { Unauthorized } from '../../shared/errors.ts';
import type { SessionUser } from '../../shared/users.ts';

/** The caller's `accountSince`; 401 when their account is gone (deleted after the session was checked). */
export async function callerSince(ctx: AppContext, user: SessionUser): Promise<string> {
  const since = await accountSince(ctx.db, user.username);
  if (since === undefined) throw new Unauthorized();
  return since;
}
