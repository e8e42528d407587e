import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { pathInt } from '../../infra/http/params.ts';
import { UserObject, findUser } from '../../projectors/auth/users.reads.ts';
import { Password, Username } from '../../shared/usernames.ts';
import { homeUsers } from './home-users.ts';

const HomeUserView = z.object({
  id: z.number().int(),
  uuid: z.string(),
  title: z.string(),
  username: z.string().nullable(),
  thumb: z.string().nullable(),
  admin: z.boolean(),
  guest: z.boolean(),
  restricted: z.boolean(),
  protected: z.boolean(),
  has_password: z.boolean(),
});

export const homeUserRoutes = [
  defineRoute({
    method: 'get',
    path: '/mediaserver/me/home-users',
    tag: 'mediaserver',
    summary: "The caller's home users (excluding the caller), read with the caller's own token",
    access: 'user',
    response: z.array(HomeUserView),
    errors: { 401: 'The stored media server token was revoked', 412: 'Media server account not linked', 502: 'The account service failed' },
    handler: ({ ctx, user }) => homeUsers(ctx).list(user.username),
  }),
  defineRoute({
    method: 'post',
    path: '/mediaserver/me/home-users/{home_user_id}/provision',
    tag: 'mediaserver',
    summary: 'Create a local account for a home user, linked to that home user',
    access: 'user',
    status: 201,
    params: z.object({ home_user_id: pathInt({ min: 1, max: 999_999_999_999 }) }),
    body: z.object({ new_username: Username, new_password: Password, pin: z.string().max(64) }),
    response: UserObject,
    errors: {
      400: 'The account service refused the switch (wrong PIN, unknown home user); its message is the detail',
      401: 'The stored media server token was revoked',
      409: 'The username already exists',
      412: 'Media server account not linked',
      502: 'The account service failed',
    },
    handler: ({ ctx, user, params, body }) =>
      homeUsers(ctx).provision(user.username, params.home_user_id, { newUsername: body.new_username, newPassword: body.new_password, pin: body.pin }),
    answer: async ({ ctx }, username) => (await findUser(ctx.db, username))!,
  }),
];
