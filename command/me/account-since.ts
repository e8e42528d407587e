import type { AppContext } from '../../infra/context.ts';
import type { SessionUser } from '../../infra/http/auth.ts';
import { Unauthorized } from '../../shared/errors.ts';
import { usernameKey } from '../../shared/usernames.ts';

/**
 * When the caller's account was registered. A deleted name can be registered again: what the
 * earlier account recorded under it is not the new account's to see, change or remove.
 */
export async function accountSince(ctx: AppContext, user: SessionUser): Promise<string> {
  const row = await ctx.db.selectFrom('users').select('created_at').where('username_key', '=', usernameKey(user.username)).where('deleted', '=', false).executeTakeFirst();
  if (!row) throw new Unauthorized();
  return row.created_at.toISOString();
}
