import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { defineRoute } from '../../infra/http/define-route.ts';
import { UNIX_SECONDS, bodyInt } from '../../infra/http/params.ts';
import { scrobblerClient } from '../../infra/upstreams/scrobbler/client.ts';
import { forgetScope } from '../../infra/upstreams/scrobbler/proxy-cache.ts';
import { userMethods } from '../../infra/upstreams/scrobbler/user-methods.ts';
import { PreconditionFailed } from '../../shared/errors.ts';
import { currentLink, sessionKeyOf } from './scrobbler-link.ts';

const name = z.string().trim().min(1).max(500);
const TrackRef = z.object({ artist: name, track: name });
const PlayBody = TrackRef.extend({
  album: z.string().trim().max(500).optional(),
  album_artist: z.string().trim().max(500).optional(),
  duration: bodyInt({ min: 0, max: 7 * 86_400 }).optional().describe('seconds'),
  track_number: bodyInt({ min: 0, max: 10_000 }).optional(),
  mbid: z.string().trim().max(64).optional(),
});
const Outcome = z.object({ artist: z.string(), track: z.string(), album: z.string().nullable(), ignored_code: z.number().int(), ignored_message: z.string().nullable() });

const ERRORS = {
  412: 'Scrobbler not linked, or the scrobbler no longer accepts the link',
  502: 'The scrobbler failed',
  503: 'The scrobbler is not configured',
};

/**
 * Runs one signed write as the caller, with their stored session key, then drops the cached answers
 * about their scrobbler user (loved tracks, counts) so the next read sees the change.
 */
async function asCaller<T>(ctx: AppContext, username: string, write: (methods: ReturnType<typeof userMethods>) => Promise<T>): Promise<T> {
  const link = await currentLink(ctx, username);
  if (!link) throw new PreconditionFailed('Scrobbler not linked');
  const client = scrobblerClient(ctx.config);
  client.assertConfigured();
  const sessionKey = await sessionKeyOf(ctx, link);
  if (!sessionKey) throw new PreconditionFailed('The scrobbler link has no usable session key; connect the scrobbler again');
  const result = await write(userMethods(client, sessionKey));
  await forgetScope(ctx.db, link.scrobblerUsername);
  return result;
}

const loveRoute = (loved: boolean) =>
  defineRoute({
    method: 'post',
    path: loved ? '/scrobbler/me/love' : '/scrobbler/me/unlove',
    tag: 'scrobbler',
    summary: loved ? 'Love a track on the caller’s scrobbler account' : 'Unlove a track on the caller’s scrobbler account',
    description: `Signed \`${loved ? 'track.love' : 'track.unlove'}\` with the caller’s session key.`,
    access: 'user',
    body: TrackRef,
    response: z.object({ artist: z.string(), track: z.string(), loved: z.boolean() }),
    errors: ERRORS,
    handler: async ({ ctx, user, body }) => {
      await asCaller(ctx, user.username, (m) => (loved ? m.love(body.artist, body.track) : m.unlove(body.artist, body.track)));
      return { artist: body.artist, track: body.track, loved };
    },
  });

export const liveWriteRoutes = [
  loveRoute(true),
  loveRoute(false),
  defineRoute({
    method: 'post',
    path: '/scrobbler/me/scrobble',
    tag: 'scrobbler',
    summary: 'Scrobble one play to the caller’s scrobbler account',
    description:
      'Signed `track.scrobble` with the caller’s session key. `timestamp` (unix seconds, when the play started) defaults to now. A play the scrobbler ignores answers 200 with `accepted: 0` and its reason in `ignored_code`/`ignored_message`. The local mirror picks it up at its next refresh.',
    access: 'user',
    body: PlayBody.extend({ timestamp: bodyInt(UNIX_SECONDS).optional() }),
    response: Outcome.extend({ accepted: z.number().int(), ignored: z.number().int(), timestamp: z.number().int() }),
    errors: ERRORS,
    handler: async ({ ctx, user, body }) => {
      const { timestamp = Math.floor(Date.now() / 1000), ...play } = body;
      return asCaller(ctx, user.username, (m) => m.scrobble(play, timestamp));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/scrobbler/me/now-playing',
    tag: 'scrobbler',
    summary: 'Tell the caller’s scrobbler account what is playing now',
    description: 'Signed `track.updateNowPlaying` with the caller’s session key.',
    access: 'user',
    body: PlayBody,
    response: Outcome,
    errors: ERRORS,
    handler: ({ ctx, user, body }) => asCaller(ctx, user.username, (m) => m.nowPlaying(body)),
  }),
];
