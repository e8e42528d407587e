import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { streamerLink } from './link.ts';

const NOT_CONFIGURED = 'The streamer is not configured (STREAMER_CLIENT_ID, STREAMER_CLIENT_SECRET, STREAMER_REDIRECT_URI)';

export const streamerLinkRoutes = [
  defineRoute({
    method: 'post',
    path: '/streamer/me/auth/start',
    tag: 'streamer',
    summary: 'The accounts page the client must navigate to, to link the caller’s streamer account',
    description: 'Authorization code flow with PKCE (S256). The `state` is bound to the caller, valid 10 minutes and usable once; the redirect URI is `STREAMER_REDIRECT_URI`.',
    access: 'user',
    response: z.object({ url: z.string() }),
    errors: { 503: NOT_CONFIGURED },
    handler: async ({ ctx, user }) => streamerLink(ctx).start(user.username),
  }),
  defineRoute({
    method: 'get',
    path: '/streamer/auth/callback',
    tag: 'streamer',
    summary: 'Where the accounts service sends the browser back: exchanges the code, stores the tokens, redirects to the client',
    description:
      'Success: the tokens are stored encrypted, the link recorded, and the browser sent to `CLIENT_URL/settings?streamer=linked`. An `error`, a missing, foreign, expired or used state, or a failed exchange: `CLIENT_URL/settings?streamer=error&reason=…`.',
    access: 'user',
    query: z.object({
      code: z.string().min(1).max(2000).optional(),
      state: z.string().max(200).optional(),
      error: z.string().max(200).optional(),
    }),
    response: z.null(),
    status: 302,
    raw: true,
    errors: { 400: 'None of code, state and error', 503: NOT_CONFIGURED },
    handler: ({ ctx, user, query }) => streamerLink(ctx).callback(user.username, query),
    // The client reads the link as soon as it lands: redirect once the read models have it.
    answer: async ({ res }, target) => {
      res.redirect(302, target);
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/streamer/me',
    tag: 'streamer',
    summary: 'Drop the caller’s stored streamer credentials and link identity (nothing is revoked upstream)',
    description: 'The mirror stays in the log; listings show the account linked now.',
    access: 'user',
    response: z.object({ unlinked: z.boolean() }),
    errors: { 503: NOT_CONFIGURED },
    handler: ({ ctx, user }) => {
      const link = streamerLink(ctx);
      link.assertConfigured();
      return link.unlink(user.username);
    },
  }),
];
