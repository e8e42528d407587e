import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { LinkView } from '../../shared/mediaserver.ts';
import { Username } from '../../shared/usernames.ts';
import { mediaserverLink } from './link.ts';

const PinStarted = z.object({
  code: z.string().meta({ description: 'The code the user enters on the account service' }),
  auth_url: z.string().meta({ description: 'Where the user signs in to link this PIN' }),
  expires_at: z.string(),
  expires_in: z.number().int(),
});

const FinishResponse = z.object({
  status: z.enum(['pending', 'completed', 'expired', 'no_pending_pin']),
  link: LinkView.optional(),
  error: z.string().optional(),
  expires_at: z.string().optional(),
});

export const linkCommandRoutes = [
  defineRoute({
    method: 'post',
    path: '/mediaserver/me/auth/start',
    tag: 'mediaserver',
    summary: 'Start linking a media server account: a new PIN (replacing a pending one); then poll finish',
    access: 'user',
    response: PinStarted,
    errors: { 502: 'The account service failed' },
    handler: ({ ctx, user }) => mediaserverLink(ctx).start(user.username),
  }),
  defineRoute({
    method: 'post',
    path: '/mediaserver/me/auth/finish',
    tag: 'mediaserver',
    summary: 'Poll the pending PIN once: pending, completed (with the link), expired (with an error) or no_pending_pin',
    access: 'user',
    response: FinishResponse,
    errors: { 502: 'The account service failed' },
    handler: ({ ctx, user }) => mediaserverLink(ctx).finish(user.username),
  }),
  defineRoute({
    method: 'post',
    path: '/mediaserver/me/auth/cancel',
    tag: 'mediaserver',
    summary: 'Drop the pending PIN, if any; an existing link stays',
    access: 'user',
    response: z.object({ cancelled: z.boolean() }),
    handler: ({ ctx, user }) => mediaserverLink(ctx).cancel(user.username),
  }),
  defineRoute({
    method: 'delete',
    path: '/mediaserver/me',
    tag: 'mediaserver',
    summary: "Unlink the caller's media server account and forget its token",
    access: 'user',
    response: z.object({ unlinked: z.boolean() }),
    handler: ({ ctx, user }) => mediaserverLink(ctx).unlink(user.username, user.username),
  }),
  defineRoute({
    method: 'delete',
    path: '/mediaserver/admin/linked-users/{username}',
    tag: 'mediaserver',
    summary: "Unlink a user's media server account and forget its token",
    access: 'admin',
    params: z.object({ username: Username }),
    response: z.object({ username: z.string(), unlinked: z.boolean() }),
    handler: async ({ ctx, user, params }) => ({ username: params.username, ...(await mediaserverLink(ctx).unlink(params.username, user.username)) }),
  }),
];
