import { z } from 'zod';
import { UNIX_SECONDS, optionalQueryInt, queryInt } from '../../infra/http/params.ts';
import { TTL } from '../../infra/upstreams/scrobbler/proxy-cache.ts';
import { Period, paging, proxyRoute, str } from './proxy-route.ts';

const User = z.object({ username: str(100) });
const Paging = z.object(paging);
const RecentQuery = z.object({
  page: paging.page,
  limit: queryInt(50, { min: 1, max: 200 }),
  from: optionalQueryInt(UNIX_SECONDS),
  to: optionalQueryInt(UNIX_SECONDS),
});

/**
 * One scrobbler user's public listening methods, as `/scrobbler/users/{username}/…` routes. The
 * answers are cached under that scrobbler user, so their own writes through this service drop them.
 */
export const USER_METHODS = {
  info: { method: 'user.getInfo', ttlMs: TTL.user, query: undefined },
  friends: { method: 'user.getFriends', ttlMs: TTL.user, query: Paging },
  'loved-tracks': { method: 'user.getLovedTracks', ttlMs: TTL.user, query: Paging },
  'top-albums': { method: 'user.getTopAlbums', ttlMs: TTL.user, query: Paging.extend({ period: Period }) },
  'top-artists': { method: 'user.getTopArtists', ttlMs: TTL.user, query: Paging.extend({ period: Period }) },
  'top-tracks': { method: 'user.getTopTracks', ttlMs: TTL.user, query: Paging.extend({ period: Period }) },
} as const;

export type UserMethodTail = keyof typeof USER_METHODS;

export const userProxyRoutes = [
  ...(Object.keys(USER_METHODS) as UserMethodTail[]).map((tail) =>
    proxyRoute({
      path: `/scrobbler/users/{username}/${tail}`,
      summary: `A scrobbler user’s ${tail.replace('-', ' ')}`,
      method: USER_METHODS[tail].method,
      ttlMs: USER_METHODS[tail].ttlMs,
      params: User,
      query: USER_METHODS[tail].query,
      upstream: ({ params, query }) => ({ ...query, user: params.username }),
      scope: ({ params }) => String(params.username),
    }),
  ),
  proxyRoute({
    path: '/scrobbler/users/{username}/recent-tracks',
    summary: 'A scrobbler user’s recent tracks, live (the now-playing row first when there is one)',
    method: 'user.getRecentTracks',
    ttlMs: TTL.recent,
    params: User,
    query: RecentQuery,
    upstream: ({ params, query }) => ({ ...query, user: params.username }),
    scope: ({ params }) => String(params.username),
  }),
];
