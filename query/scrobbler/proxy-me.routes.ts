import { z } from 'zod';
import { linkedScrobblerUsername } from '../../projectors/auth/users.reads.ts';
import type { Route } from '../../infra/http/define-route.ts';
import { defineRoute } from '../../infra/http/define-route.ts';
import { UNIX_SECONDS, pathInt } from '../../infra/http/params.ts';
import { TTL } from '../../infra/upstreams/scrobbler/proxy-cache.ts';
import { PROXY_ERRORS, Period, Proxied, paging, readFor } from './proxy-route.ts';

type Values = Record<string, string | number | boolean | undefined>;

interface MeSpec {
  path: string;
  summary: string;
  method: string;
  ttlMs: number;
  params?: z.ZodObject<z.ZodRawShape>;
  query?: z.ZodObject<z.ZodRawShape>;
  /** The method's parameters besides `user`; the path and query values by default. */
  upstream?(input: { params: Values; query: Values }): Values;
  /** The scrobbler's own envelope around an empty list, answered when the caller has no link. */
  empty(input: { params: Values; query: Values }): Record<string, unknown>;
}

const Paging = z.object(paging);
const TopQuery = Paging.extend({ period: Period });
const pageAttr = (query: Values) => ({ user: '', page: String(query.page ?? 1), perPage: String(query.limit ?? 50), totalPages: '0', total: '0' });
const list = (outer: string, inner: string) => (input: { query: Values }) => ({ [outer]: { [inner]: [], '@attr': pageAttr(input.query) } });

/**
 * A read about the caller's own listening, asked of the scrobbler with the linked username. Without a
 * link it answers the method's empty envelope (no upstream call), as for every `me` listening read.
 */
function meRoute(spec: MeSpec): Route {
  return defineRoute({
    method: 'get',
    path: spec.path,
    tag: 'scrobbler',
    summary: spec.summary,
    description: `Live \`${spec.method}\` for the caller’s linked scrobbler user, cached; the scrobbler’s own shape. Without a link: the same envelope, empty.`,
    access: 'user',
    params: spec.params,
    query: spec.query,
    response: Proxied,
    errors: PROXY_ERRORS,
    handler: async ({ ctx, user, params, query }) => {
      const input = { params: (params ?? {}) as Values, query: (query ?? {}) as Values };
      const linked = await linkedScrobblerUsername(ctx.db, user.username);
      if (!linked) return spec.empty(input);
      const own = spec.upstream ?? ((i: typeof input) => ({ ...i.params, ...i.query }));
      return readFor(ctx, { ...spec, upstream: (i) => ({ ...own(i), user: linked }), scope: () => linked }, input);
    },
  });
}

const listenings: MeSpec[] = [
  { path: '/scrobbler/me/info', summary: 'The caller’s scrobbler profile', method: 'user.getInfo', ttlMs: TTL.user, empty: () => ({ user: null }) },
  { path: '/scrobbler/me/friends', summary: 'The caller’s scrobbler friends', method: 'user.getFriends', ttlMs: TTL.user, query: Paging, empty: list('friends', 'user') },
  { path: '/scrobbler/me/library/artists', summary: 'Artists in the caller’s scrobbler library, with play counts', method: 'library.getArtists', ttlMs: TTL.user, query: Paging, empty: list('artists', 'artist') },
  { path: '/scrobbler/me/loved-tracks', summary: 'Tracks the caller loved on the scrobbler', method: 'user.getLovedTracks', ttlMs: TTL.user, query: Paging, empty: list('lovedtracks', 'track') },
  { path: '/scrobbler/me/top-albums', summary: 'The caller’s most played albums over a period', method: 'user.getTopAlbums', ttlMs: TTL.user, query: TopQuery, empty: list('topalbums', 'album') },
  { path: '/scrobbler/me/top-artists', summary: 'The caller’s most played artists over a period', method: 'user.getTopArtists', ttlMs: TTL.user, query: TopQuery, empty: list('topartists', 'artist') },
  { path: '/scrobbler/me/top-tracks', summary: 'The caller’s most played tracks over a period', method: 'user.getTopTracks', ttlMs: TTL.user, query: TopQuery, empty: list('toptracks', 'track') },
  {
    path: '/scrobbler/me/charts/list',
    summary: 'The weekly ranges the caller has charts for (`from`, `to` unix seconds)',
    method: 'user.getWeeklyChartList',
    ttlMs: TTL.user,
    empty: () => ({ weeklychartlist: { chart: [], '@attr': { user: '' } } }),
  },
];

const Range = z.object({ from_ts: pathInt(UNIX_SECONDS), to_ts: pathInt(UNIX_SECONDS) });

/** `/scrobbler/me/charts/{from_ts}/{to_ts}/albums|artists|tracks` → `user.getWeekly…Chart` with `from`, `to`. */
const weeklyCharts: MeSpec[] = (['albums', 'artists', 'tracks'] as const).map((kind) => {
  const singular = kind.slice(0, -1);
  const name = `weekly${singular}chart`;
  return {
    path: `/scrobbler/me/charts/{from_ts}/{to_ts}/${kind}`,
    summary: `The caller’s ${kind} chart for one range of the chart list`,
    method: `user.getWeekly${singular.charAt(0).toUpperCase()}${singular.slice(1)}Chart`,
    ttlMs: TTL.weekly,
    params: Range,
    upstream: ({ params }) => ({ from: params.from_ts, to: params.to_ts }),
    empty: ({ params }) => ({ [name]: { [singular]: [], '@attr': { user: '', from: String(params.from_ts), to: String(params.to_ts) } } }),
  };
});

export const meProxyRoutes = [...listenings.map(meRoute), ...weeklyCharts.map(meRoute)];
