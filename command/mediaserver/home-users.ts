import { accounts } from '../auth/accounts.ts';
import type { AppContext } from '../../infra/context.ts';
import { mediaserverClients } from '../../infra/upstreams/mediaserver/client.ts';
import type { HomeUser } from '../../infra/upstreams/mediaserver/schemas.ts';
import { BadRequest, Conflict, UpstreamNotFound } from '../../shared/errors.ts';
import { findUser } from '../../projectors/auth/users.reads.ts';
import { mediaserverLink } from './link.ts';

export const homeUserView = (u: HomeUser) => ({
  id: u.id,
  uuid: u.uuid,
  title: u.title,
  username: u.username ?? null,
  thumb: u.thumb ?? null,
  admin: u.admin,
  guest: u.guest,
  restricted: u.restricted,
  protected: u.protected,
  has_password: u.hasPassword,
});

/**
 * The caller's home (the other people on their media server account), with the caller's own token:
 * 412 when not linked, 401 when the account service refuses the stored token.
 */
export function homeUsers(ctx: AppContext) {
  const link = mediaserverLink(ctx);
  const { account } = mediaserverClients(ctx);

  async function others(username: string): Promise<{ token: string; users: HomeUser[] }> {
    const token = await link.userToken(username);
    const state = await link.load(username);
    const users = await account.homeUsers(token);
    const self = state.link?.account;
    return { token, users: users.filter((u) => u.id !== self?.id && u.uuid !== self?.uuid) };
  }

  return {
    async list(username: string) {
      return (await others(username)).users.map(homeUserView);
    },

    /**
     * A home user becomes a local account linked to that home user: the switch (with the home
     * user's PIN) gives their own token. A wrong PIN or an unknown home user is a 400 carrying the
     * account service's message; a taken username a 409, checked before anything is switched.
     */
    async provision(caller: string, homeUserId: number, input: { newUsername: string; newPassword: string; pin: string }) {
      const { token, users } = await others(caller);
      const target = users.find((u) => u.id === homeUserId);
      if (!target) throw new BadRequest(`No home user ${homeUserId} on this account`);
      if (await findUser(ctx.db, input.newUsername)) throw new Conflict('Username already exists');
      let switched;
      try {
        switched = await account.switchUser(token, target.uuid, input.pin);
      } catch (error) {
        if (error instanceof UpstreamNotFound) throw new BadRequest(`No home user ${homeUserId} on this account`);
        throw error;
      }
      await accounts(ctx).register(input.newUsername, input.newPassword, 'viewer', caller);
      await link.linkWithToken(input.newUsername, switched.authToken, switched, caller);
      return input.newUsername;
    },
  };
}
