import { z } from 'zod';
import { TTL } from '../../infra/upstreams/scrobbler/proxy-cache.ts';
import { paging, proxyRoute, str } from './proxy-route.ts';

const Paging = z.object(paging);
const Country = z.object({ country: str(100) });
const Tag = z.object({ tag: str(200) });

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const pascal = (tail: string) => tail.split('-').map(cap).join('');

/** Global charts: `/scrobbler/charts/top-artists|top-tags|top-tracks` → `chart.getTopArtists`, … */
const chartRoutes = (['top-artists', 'top-tags', 'top-tracks'] as const).map((tail) =>
  proxyRoute({
    path: `/scrobbler/charts/${tail}`,
    summary: `The scrobbler’s global chart of ${tail.slice(4)}`,
    method: `chart.get${pascal(tail)}`,
    ttlMs: TTL.charts,
    query: Paging,
    upstream: ({ query }) => ({ page: query.page, limit: query.limit }),
  }),
);

/** Country charts; a country the scrobbler does not know (an ISO 3166-1 name) answers 404. */
const geoRoutes = (['top-artists', 'top-tracks'] as const).map((tail) =>
  proxyRoute({
    path: `/scrobbler/geo/{country}/${tail}`,
    summary: `The most listened ${tail.slice(4)} in a country (ISO 3166-1 country name)`,
    method: `geo.get${pascal(tail)}`,
    ttlMs: TTL.charts,
    params: Country,
    query: Paging,
    upstream: ({ params, query }) => ({ country: params.country, page: query.page, limit: query.limit }),
  }),
);

/** Tags: info, similar tags, top albums/artists/tracks, and the weeks the tag has charts for. */
const tagRoutes = [
  proxyRoute({
    path: '/scrobbler/tags/{tag}/info',
    summary: 'A tag’s description and reach',
    method: 'tag.getInfo',
    ttlMs: TTL.catalog,
    params: Tag,
    query: z.object({ lang: z.string().max(8).optional() }),
    upstream: ({ params, query }) => ({ tag: params.tag, lang: query.lang }),
  }),
  proxyRoute({
    path: '/scrobbler/tags/{tag}/similar',
    summary: 'Tags the scrobbler finds similar',
    method: 'tag.getSimilar',
    ttlMs: TTL.catalog,
    params: Tag,
    upstream: ({ params }) => ({ tag: params.tag }),
  }),
  ...(['top-albums', 'top-artists', 'top-tracks'] as const).map((tail) =>
    proxyRoute({
      path: `/scrobbler/tags/{tag}/${tail}`,
      summary: `The ${tail.slice(4)} most tagged with a tag`,
      method: `tag.get${pascal(tail)}`,
      ttlMs: TTL.charts,
      params: Tag,
      query: Paging,
      upstream: ({ params, query }) => ({ tag: params.tag, page: query.page, limit: query.limit }),
    }),
  ),
  proxyRoute({
    path: '/scrobbler/tags/{tag}/weekly-chart-list',
    summary: 'The weekly chart ranges available for a tag',
    method: 'tag.getWeeklyChartList',
    ttlMs: TTL.weekly,
    params: Tag,
    upstream: ({ params }) => ({ tag: params.tag }),
  }),
];

export const proxyChartsRoutes = [...chartRoutes, ...geoRoutes, ...tagRoutes];
