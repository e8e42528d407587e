import { z } from 'zod';
import { linkedScrobblerUsername } from '../../projectors/auth/users.reads.ts';
import { defineRoute } from '../../infra/http/define-route.ts';
import { TTL } from '../../infra/upstreams/scrobbler/proxy-cache.ts';
import { liveRead } from '../../infra/upstreams/scrobbler/live-read.ts';
import { ScrobblerFailure } from '../../infra/upstreams/scrobbler/errors.ts';
import { type StatsKind, UserStatsSchema, emptyUserStats, userStatsOf } from '../../infra/upstreams/scrobbler/user-stats.ts';
import { PROXY_ERRORS, str } from './proxy-route.ts';

const PATHS: Record<StatsKind, { path: string; second?: 'album' | 'track' }> = {
  artist: { path: '/scrobbler/me/artists/{artist}/stats' },
  album: { path: '/scrobbler/me/albums/{artist}/{album}/stats', second: 'album' },
  track: { path: '/scrobbler/me/tracks/{artist}/{track}/stats', second: 'track' },
};

/**
 * The caller's plays of one artist, album or track, live: `<kind>.getInfo` with the linked username
 * (`userplaycount`, and `userloved` for tracks) beside everyone's counts. Without a link: zero plays.
 */
function statsRoute(kind: StatsKind) {
  const { path, second } = PATHS[kind];
  return defineRoute({
    method: 'get',
    path,
    tag: 'scrobbler',
    summary: `The caller’s scrobbler plays of one ${kind}, beside everyone’s`,
    description: `Live \`${kind}.getInfo\` with the caller’s scrobbler username, cached. Without a link: zero plays and no upstream call.`,
    access: 'user',
    params: second ? z.object({ artist: str(), [second]: str() }) : z.object({ artist: str() }),
    response: UserStatsSchema,
    errors: PROXY_ERRORS,
    handler: async ({ ctx, user, params }) => {
      const p = params as Record<string, string>;
      const asked = { artist: p.artist!, ...(second ? { name: p[second]! } : {}) };
      const linked = await linkedScrobblerUsername(ctx.db, user.username);
      if (!linked) return emptyUserStats(kind, asked);
      const upstream = { artist: asked.artist, ...(second ? { [second]: asked.name! } : {}), username: linked, autocorrect: '0' };
      const answer = await liveRead(ctx, { method: `${kind}.getInfo`, params: upstream, ttlMs: TTL.user, scope: linked });
      const stats = userStatsOf(kind, answer, asked);
      if (!stats) throw new ScrobblerFailure(null, `${kind}.getInfo answered an unexpected shape`);
      return stats;
    },
  });
}

export const proxyStatsRoutes = (['artist', 'album', 'track'] as const).map(statsRoute);
