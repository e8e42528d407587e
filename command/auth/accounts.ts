import type { z } from 'zod';
import type { WithoutMeta } from '../../shared/commands.ts';
import type { AppContext } from '../../infra/context.ts';
import { handleCommand } from '../../infra/eventstore/command-handler.ts';
import { type UserEvent, type Preferences, SESSION_ENDING_EVENTS } from '../../shared/events/users.events.ts';
import { DomainError, Unauthorized } from '../../shared/errors.ts';
import { userStream } from '../../shared/streams.ts';
import { usernameKey } from '../../shared/usernames.ts';
import type { Role } from '../../shared/users.ts';
import * as userDecider from './user.decider.ts';
import type { UserCommand } from './user.decider.ts';

/**
 * Commands guarded by "not the last admin" count the other admins in the read model, which another
 * such command may be changing at the same moment (two admins demoting each other would both see
 * one other admin). Within a process they run one at a time, each once the read model includes the
 * previous one.
 */
const adminGuards = new WeakMap<object, Promise<unknown>>();
function oneAtATime<T>(key: object, work: () => Promise<T>): Promise<T> {
  const result = (adminGuards.get(key) ?? Promise.resolve()).then(work, work);
  adminGuards.set(key, result.catch(() => undefined));
  return result;
}

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
    // Ended sessions are refused from now on in this process (and, announced, in the others), whatever the read models' pace.
    if (handled.events.some((e) => (SESSION_ENDING_EVENTS as readonly string[]).includes(e.type))) {
      await auth.sessions.revoke(usernameKey(username), handled.state.sessionVersion);
    }
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

  /**
   * Stores a new password hash, then runs the command that refers to it, and drops the credential
   * that command replaced (exactly that one: a blanket prune would delete the row a concurrent change
   * just wrote). When the decider refuses (409 taken, 404 unknown) nothing was appended, so the new
   * row is dropped; any other failure may follow a committed append, so it is kept. Answers the
   * session version sessions issued from now on carry.
   */
  async function withNewPassword(username: string, password: string, command: (credentialId: string) => WithoutMeta<UserCommand>, actor: string | null): Promise<number> {
    const credentialId = await auth.credentials.put(usernameKey(username), 'password', await auth.hasher.hash(password));
    let replaced: string | null = null;
    const decideOn = (state: userDecider.UserState) => {
      replaced = state.status === 'active' ? state.credentialId : null;
      return command(credentialId);
    };
    let handled;
    try {
      handled = await run(username, decideOn, actor);
    } catch (error) {
      if (error instanceof DomainError) await auth.credentials.remove(credentialId);
      throw error;
    }
    if (replaced && replaced !== credentialId) await auth.credentials.remove(replaced);
    return handled.state.sessionVersion;
  }

  return {
    /** Answers the new account's session version. */
    register(username: string, password: string, role: Role, actor: string | null) {
      return withNewPassword(username, password, (credentialId) => ({ type: 'RegisterUser', username, role, credentialId }), actor);
    },

    /** Checks a password; every failure is the same 401, in about the same time. */
    async verifyPassword(username: string, password: string) {
      const row = await ctx.db
        .selectFrom('users')
        .select(['username', 'credential_id', 'deleted', 'session_version'])
        .where('username_key', '=', usernameKey(username))
        .executeTakeFirst();
      // A hash that cannot be opened (SECRET_KEY changed, row altered) is undefined: a wrong password, logged by the store.
      const hash = row && !row.deleted && row.credential_id ? await auth.credentials.get(row.credential_id) : undefined;
      const ok = await auth.hasher.verify(password, hash);
      if (!ok || !row) throw new Unauthorized('Incorrect username or password');
      return row;
    },

    /** Answers the session version the caller's new session carries. */
    changePassword(username: string, password: string, actor: string) {
      return withNewPassword(username, password, (credentialId) => ({ type: 'ChangePassword', credentialId }), actor);
    },

    changeProfile(username: string, changes: { displayName?: string | null; email?: string | null; preferences?: z.infer<typeof Preferences> }, actor: string) {
      return run(username, { type: 'ChangeProfile', ...changes }, actor);
    },

    changeRole(username: string, role: Role, actor: string) {
      return oneAtATime(ctx.db, async () => {
        const others = await otherAdmins(username);
        const handled = await run(username, { type: 'ChangeRole', role, otherAdmins: others }, actor);
        await ctx.readModels.catchUp(); // the next guarded command counts the admins in the read model
        return handled;
      });
    },

    endSessions(username: string) {
      return run(username, { type: 'EndSessions' }, username);
    },

    async delete(username: string, actor: string) {
      let credentialId: string | null = null;
      await oneAtATime(ctx.db, async () => {
        const others = await otherAdmins(username);
        const decideOn = (state: userDecider.UserState) => {
          credentialId = state.credentialId;
          return { type: 'DeleteUser' as const, otherAdmins: others };
        };
        await run(username, decideOn, actor);
        await ctx.readModels.catchUp(); // the next guarded command counts the admins in the read model
      });
      if (credentialId) await auth.credentials.remove(credentialId);
    },
  };
}
