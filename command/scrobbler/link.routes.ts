import type { Request } from 'express';
import { z } from 'zod';
import { consumeCallbackState, issueCallbackState } from '../../infra/auth/callback-state.ts';
import { defineRoute } from '../../infra/http/define-route.ts';
import { scrobblerClient } from '../../infra/upstreams/scrobbler/client.ts';
import { ScrobblerFailure } from '../../infra/upstreams/scrobbler/errors.ts';
import { BadRequest } from '../../shared/errors.ts';
import { linkScrobbler, unlinkScrobbler } from './scrobbler-link.ts';

const CALLBACK_PATH = '/scrobbler/auth/callback';
/** What the callback state is for: a state issued for another flow does not verify here. */
const STATE_PURPOSE = 'scrobbler-link';

/** The callback as the browser reaches this service (behind a proxy, its forwarded host). */
function callbackUrl(req: Request, state: string): string {
  const url = new URL(CALLBACK_PATH, `${req.protocol}://${req.get('host')}`);
  url.searchParams.set('state', state);
  return url.toString();
}

export const linkRoutes = [
  defineRoute({
    method: 'get',
    path: '/scrobbler/auth/start',
    tag: 'scrobbler',
    summary: 'The scrobbler page to send the browser to, to link the caller’s account',
    access: 'user',
    response: z.object({ url: z.string() }),
    errors: { 503: 'The scrobbler is not configured' },
    handler: async ({ ctx, user, req }) => {
      const state = issueCallbackState(ctx.secrets.jwtSecret, STATE_PURPOSE, user.username);
      return { url: scrobblerClient(ctx.config).authorizeUrl(callbackUrl(req, state)) };
    },
  }),
  defineRoute({
    method: 'get',
    path: CALLBACK_PATH,
    tag: 'scrobbler',
    summary: 'Where the scrobbler sends the browser back: stores the session key, links, redirects to the client',
    description:
      'Exchanges the web-auth `token` for a session key (kept encrypted in the credentials store), records the link and redirects to `CLIENT_URL`. `state` is the one start issued to the caller: required, valid 10 minutes, usable once.',
    access: 'user',
    query: z.object({
      token: z.string().min(1).max(200).optional(),
      // Optional to the validator so that a missing state answers 400 like every other refused state.
      state: z.string().max(200).optional().meta({ description: 'Required: the state `start` put in the callback URL' }),
    }),
    response: z.null(),
    status: 302,
    raw: true,
    errors: {
      400: 'No token; no state, a state issued to someone else, expired (10 minutes) or already used; or a token the scrobbler refused',
      502: 'The scrobbler failed',
      503: 'The scrobbler is not configured',
    },
    handler: async ({ ctx, user, query }) => {
      if (!query.token) throw new BadRequest('The scrobbler callback carries no token');
      // Consumed before the exchange: a link someone else started can never reach linkScrobbler.
      await consumeCallbackState(ctx.db, ctx.secrets.jwtSecret, STATE_PURPOSE, user.username, query.state);
      const session = await scrobblerClient(ctx.config)
        .getSession(query.token)
        .catch((error: unknown) => {
          if (error instanceof ScrobblerFailure && error.authRejected) throw new BadRequest(`The scrobbler refused the token: ${error.message}`);
          throw error;
        });
      await linkScrobbler(ctx, user.username, session.name, session.key);
      const target = new URL(ctx.config.CLIENT_URL);
      target.searchParams.set('scrobbler', 'linked');
      return target.toString();
    },
    // The browser lands on the client, which reads the link at once: redirect after the read models have it.
    answer: async ({ res }, target) => {
      res.redirect(302, target);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/scrobbler/auth/disconnect',
    tag: 'scrobbler',
    summary: 'Unlink the caller’s scrobbler account and forget its session key',
    description: 'The mirrored scrobbles stay in the history; a later link to the same account continues it.',
    access: 'user',
    response: z.object({ linked: z.literal(false), was_linked: z.boolean() }),
    handler: async ({ ctx, user }) => ({ linked: false as const, was_linked: await unlinkScrobbler(ctx, user.username) }),
  }),
];
