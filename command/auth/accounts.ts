import type { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { handleCommand } from '../../infra/eventstore/command-handler.ts';
import type { UserEvent, Preferences } from '../../shared/events/users.events.ts';
import { Unauthorized } from '../../shared/errors.ts';
import { userStream } from '../../shared/streams.ts';
import { usernameKey } from '../../shared/usernames.ts';
import type { Role } from '../../infra/http/auth.ts';
import * as userDecider from './user.decider.ts';
import type { UserCommand } from './user.decider.ts';

type WithoutMeta<C> = C extends { meta: unknown } ? Omit<C, 'meta'> : never;

/** The account use cases shared by the auth routes, the admin routes and the first-start bootstrap. */
export function accounts(ctx: AppContext) {
  const { auth } = ctx;

  async function run(username: string, command: WithoutMeta<UserCommand> | ((s: userDecider.UserState) => WithoutMeta<UserCommand>), actor: string | null) {
    const meta = { now: new Date().toISOString(), actor };
    const withMeta = (c: WithoutMeta<UserCommand>) => ({ ...c, meta }) as UserCommand;
    const handled = await handleCommand<userDecider.UserState, UserCommand, UserEvent>(
      ctx.store,
      userStream(usernameKey(username)),
      userDecider,
      typeof command === 'function' ? (s) => withMeta(command(s)) : withMeta(command),
      { actor },
    );
    await ctx.settle(handled.result?.position);
    return handled;
  }

  async function otherAdmins(username: string): Promise<number> {
    const row = await ctx.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', 'admin')
      .where('deleted', '=', false)
      .where('username_key', '!=', usernameKey(username))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  return {
    async register(username: string, password: string, role: Role, actor: string | null) {
      const credentialId = await auth.credentials.put(usernameKey(username), 'password', await auth.hasher.hash(password));
      await run(username, { type: 'RegisterUser', username, role, credentialId }, actor);
    },

    /** Checks a password; every failure is the same 401, in about the same time. */
    async verifyPassword(username: string, password: string) {
      const row = await ctx.db
        .selectFrom('users')
        .select(['username', 'credential_id', 'deleted', 'session_version'])
        .where('username_key', '=', usernameKey(username))
        .executeTakeFirst();
      const hash = row && !row.deleted && row.credential_id ? await auth.credentials.get(row.credential_id) : undefined;
      const ok = await auth.hasher.verify(password, hash);
      if (!ok || !row) throw new Unauthorized('Incorrect username or password');
      return row;
    },

    async changePassword(username: string, password: string, actor: string) {
      const key = usernameKey(username);
      const credentialId = await auth.credentials.put(key, 'password', await auth.hasher.hash(password));
      await run(username, { type: 'ChangePassword', credentialId }, actor);
      await auth.credentials.prune(key, 'password', credentialId);
    },

    changeProfile(username: string, changes: { displayName?: string | null; email?: string | null; preferences?: z.infer<typeof Preferences> }, actor: string) {
      return run(username, { type: 'ChangeProfile', ...changes }, actor);
    },

    async changeRole(username: string, role: Role, actor: string) {
      const others = await otherAdmins(username);
      return run(username, { type: 'ChangeRole', role, otherAdmins: others }, actor);
    },

    endSessions(username: string) {
      return run(username, { type: 'EndSessions' }, username);
    },

    async delete(username: string, actor: string) {
      const others = await otherAdmins(username);
      await run(username, { type: 'DeleteUser', otherAdmins: others }, actor);
      await auth.credentials.prune(usernameKey(username), 'password', null);
    },
  };
}
