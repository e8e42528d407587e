import { z } from 'zod';
import { TTL } from '../../infra/upstreams/scrobbler/proxy-cache.ts';
import { autocorrect, paging, proxyRoute, str } from './proxy-route.ts';

const Artist = z.object({ artist: str() });
const Album = z.object({ artist: str(), album: str() });
const Track = z.object({ artist: str(), track: str() });
const Search = z.object({ q: str(), ...paging });
const Limit = z.object({ limit: paging.limit, ...autocorrect });

/** Artists: `/scrobbler/artists/search` and `/scrobbler/artists/{artist}/…`. */
const artistRoutes = [
  proxyRoute({
    path: '/scrobbler/artists/search',
    summary: 'Search the scrobbler’s artists by name',
    method: 'artist.search',
    ttlMs: TTL.search,
    query: Search,
    upstream: ({ query }) => ({ artist: query.q, page: query.page, limit: query.limit }),
  }),
  proxyRoute({
    path: '/scrobbler/artists/{artist}/correction',
    summary: 'The scrobbler’s spelling correction of an artist name',
    method: 'artist.getCorrection',
    ttlMs: TTL.catalog,
    params: Artist,
    upstream: ({ params }) => ({ artist: params.artist }),
  }),
  proxyRoute({
    path: '/scrobbler/artists/{artist}/info',
    summary: 'An artist’s scrobbler profile: biography, listeners, tags, similar',
    method: 'artist.getInfo',
    ttlMs: TTL.catalog,
    params: Artist,
    query: z.object({ ...autocorrect, lang: z.string().max(8).optional() }),
    upstream: ({ params, query }) => ({ artist: params.artist, autocorrect: query.autocorrect, lang: query.lang }),
  }),
  proxyRoute({
    path: '/scrobbler/artists/{artist}/similar',
    summary: 'Artists the scrobbler finds similar',
    method: 'artist.getSimilar',
    ttlMs: TTL.catalog,
    params: Artist,
    query: Limit,
    upstream: ({ params, query }) => ({ artist: params.artist, limit: query.limit, autocorrect: query.autocorrect }),
  }),
  ...(['top-albums', 'top-tracks'] as const).map((tail) =>
    proxyRoute({
      path: `/scrobbler/artists/{artist}/${tail}`,
      summary: `An artist’s most played ${tail === 'top-albums' ? 'albums' : 'tracks'} on the scrobbler`,
      method: tail === 'top-albums' ? 'artist.getTopAlbums' : 'artist.getTopTracks',
      ttlMs: TTL.catalog,
      params: Artist,
      query: z.object({ ...paging, ...autocorrect }),
      upstream: ({ params, query }) => ({ artist: params.artist, page: query.page, limit: query.limit, autocorrect: query.autocorrect }),
    }),
  ),
  proxyRoute({
    path: '/scrobbler/artists/{artist}/top-tags',
    summary: 'The tags listeners give an artist most',
    method: 'artist.getTopTags',
    ttlMs: TTL.catalog,
    params: Artist,
    query: z.object(autocorrect),
    upstream: ({ params, query }) => ({ artist: params.artist, autocorrect: query.autocorrect }),
  }),
];

/** Albums: `/scrobbler/albums/search` and `/scrobbler/albums/{artist}/{album}/…`. */
const albumRoutes = [
  proxyRoute({
    path: '/scrobbler/albums/search',
    summary: 'Search the scrobbler’s albums by title',
    method: 'album.search',
    ttlMs: TTL.search,
    query: Search,
    upstream: ({ query }) => ({ album: query.q, page: query.page, limit: query.limit }),
  }),
  proxyRoute({
    path: '/scrobbler/albums/{artist}/{album}/info',
    summary: 'An album’s scrobbler page: tracks, tags, listeners',
    method: 'album.getInfo',
    ttlMs: TTL.catalog,
    params: Album,
    query: z.object({ ...autocorrect, lang: z.string().max(8).optional() }),
    upstream: ({ params, query }) => ({ artist: params.artist, album: params.album, autocorrect: query.autocorrect, lang: query.lang }),
  }),
  proxyRoute({
    path: '/scrobbler/albums/{artist}/{album}/top-tags',
    summary: 'The tags listeners give an album most',
    method: 'album.getTopTags',
    ttlMs: TTL.catalog,
    params: Album,
    query: z.object(autocorrect),
    upstream: ({ params, query }) => ({ artist: params.artist, album: params.album, autocorrect: query.autocorrect }),
  }),
];

/** Tracks: `/scrobbler/tracks/search` and `/scrobbler/tracks/{artist}/{track}/…`. */
const trackRoutes = [
  proxyRoute({
    path: '/scrobbler/tracks/search',
    summary: 'Search the scrobbler’s tracks by title, optionally narrowed to an artist',
    method: 'track.search',
    ttlMs: TTL.search,
    query: Search.extend({ artist: z.string().trim().max(500).optional() }),
    upstream: ({ query }) => ({ track: query.q, artist: query.artist, page: query.page, limit: query.limit }),
  }),
  proxyRoute({
    path: '/scrobbler/tracks/{artist}/{track}/correction',
    summary: 'The scrobbler’s spelling correction of an artist and track',
    method: 'track.getCorrection',
    ttlMs: TTL.catalog,
    params: Track,
    upstream: ({ params }) => ({ artist: params.artist, track: params.track }),
  }),
  proxyRoute({
    path: '/scrobbler/tracks/{artist}/{track}/info',
    summary: 'A track’s scrobbler page: duration, album, tags, listeners',
    method: 'track.getInfo',
    ttlMs: TTL.catalog,
    params: Track,
    query: z.object(autocorrect),
    upstream: ({ params, query }) => ({ artist: params.artist, track: params.track, autocorrect: query.autocorrect }),
  }),
  proxyRoute({
    path: '/scrobbler/tracks/{artist}/{track}/similar',
    summary: 'Tracks the scrobbler finds similar',
    method: 'track.getSimilar',
    ttlMs: TTL.catalog,
    params: Track,
    query: Limit,
    upstream: ({ params, query }) => ({ artist: params.artist, track: params.track, limit: query.limit, autocorrect: query.autocorrect }),
  }),
  proxyRoute({
    path: '/scrobbler/tracks/{artist}/{track}/top-tags',
    summary: 'The tags listeners give a track most',
    method: 'track.getTopTags',
    ttlMs: TTL.catalog,
    params: Track,
    query: z.object(autocorrect),
    upstream: ({ params, query }) => ({ artist: params.artist, track: params.track, autocorrect: query.autocorrect }),
  }),
];

export const proxyCatalogRoutes = [...artistRoutes, ...albumRoutes, ...trackRoutes];
