import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { Role } from '../../shared/events/users.events.ts';
import { NotFound } from '../../shared/errors.ts';
import { Password, Username } from '../../shared/usernames.ts';
import { UserObject, findUser } from '../../projectors/auth/users.reads.ts';
import { accounts } from './accounts.ts';
import { ProfileFields } from './profile-fields.ts';

const Target = z.object({ username: z.string().min(1).max(64) });

export const userAdminRoutes = [
  defineRoute({
    method: 'post',
    path: '/auth/users/',
    tag: 'auth',
    summary: 'Create an account with a role',
    access: 'admin',
    body: z.object({ username: Username, password: Password, role: Role.default('viewer') }),
    response: UserObject,
    status: 201,
    errors: { 409: 'Username already exists' },
    handler: async ({ ctx, body, user }) => {
      await accounts(ctx).register(body.username, body.password, body.role, user.username);
    },
    answer: async ({ ctx, body }) => (await findUser(ctx.db, body.username))!,
  }),
  defineRoute({
    method: 'patch',
    path: '/auth/users/{username}',
    tag: 'auth',
    summary: "Change an account's role or profile fields",
    access: 'admin',
    params: Target,
    body: z.object({ ...ProfileFields, role: Role.optional() }),
    response: UserObject,
    errors: { 404: 'Unknown user', 409: 'The last admin cannot be demoted' },
    handler: async ({ ctx, params, body, user }) => {
      const account = accounts(ctx);
      if (!(await findUser(ctx.db, params.username))) throw new NotFound('User not found');
      if (body.role) await account.changeRole(params.username, body.role, user.username);
      await account.changeProfile(params.username, { displayName: body.display_name, email: body.email, preferences: body.preferences }, user.username);
    },
    answer: async ({ ctx, params }) => (await findUser(ctx.db, params.username))!,
  }),
  defineRoute({
    method: 'delete',
    path: '/auth/users/{username}',
    tag: 'auth',
    summary: 'Delete an account; its sessions end at once',
    access: 'admin',
    params: Target,
    response: z.object({ ok: z.literal(true), username: z.string() }),
    errors: { 404: 'Unknown user', 409: 'The last admin cannot be deleted' },
    handler: async ({ ctx, params, user }) => {
      await accounts(ctx).delete(params.username, user.username);
      return { ok: true as const, username: params.username };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/users/{username}/password',
    tag: 'auth',
    summary: "Reset an account's password; its sessions end",
    access: 'admin',
    params: Target,
    body: z.object({ new_password: Password }),
    response: z.object({ ok: z.literal(true) }),
    errors: { 404: 'Unknown user' },
    handler: async ({ ctx, params, body, user }) => {
      await accounts(ctx).changePassword(params.username, body.new_password, user.username);
      return { ok: true as const };
    },
  }),
];
