import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { NotFound } from '../../shared/errors.ts';
import { UserObject, findUser, listUsers } from '../../projectors/auth/users.reads.ts';

export const userQueryRoutes = [
  defineRoute({
    method: 'get',
    path: '/auth/me',
    tag: 'auth',
    summary: 'The signed-in user',
    access: 'user',
    response: UserObject,
    handler: async ({ ctx, user }) => (await findUser(ctx.db, user.username)) ?? notFound(),
  }),
  defineRoute({
    method: 'get',
    path: '/auth/users/',
    tag: 'auth',
    summary: 'Every account',
    access: 'admin',
    response: z.array(UserObject),
    handler: ({ ctx }) => listUsers(ctx.db),
  }),
];

function notFound(): never {
  throw new NotFound('User not found');
}
