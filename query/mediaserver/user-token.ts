import type { AppContext } from '../../infra/context.ts';
import { PreconditionFailed } from '../../shared/errors.ts';
import { linkRow } from '../../projectors/mediaserver/links.reads.ts';

/** The caller's own media server token, through the link read model; 412 when they have not linked. */
export async function userToken(ctx: AppContext, username: string): Promise<string> {
  const row = await linkRow(ctx.db, username);
  const token = row?.credential_id ? await ctx.auth.credentials.get(row.credential_id) : undefined;
  if (!token) throw new PreconditionFailed('Media server account not linked');
  return token;
}
