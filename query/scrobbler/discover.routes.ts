import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { WINDOW_DAYS, pathInt, queryInt } from '../../infra/http/params.ts';
import { daysBefore, windowStart } from '../../shared/scrobbles/calendar.ts';
import { heatmapCell, newArtists, rediscover } from './discover.queries.ts';
import { ScrobbleOut, nowUts, ownerOf } from './listening.queries.ts';

const PlayedEntity = z.object({
  canonical_id: z.string().nullable(),
  name: z.string(),
  plays: z.number().int(),
  first_played_at: z.string(),
  last_played_at: z.string(),
});
const RediscoverRow = PlayedEntity.extend({ artist_name: z.string().nullable(), canonical_artist_id: z.string().nullable() });
const NewArtist = PlayedEntity.extend({ tracks: z.array(RediscoverRow) });

/** Views of the caller's own listening; without a scrobbler link each answers an empty list. */
export const discoverRoutes = [
  defineRoute({
    method: 'get',
    path: '/scrobbler/me/dashboard/heatmap-cell',
    tag: 'scrobbler',
    summary: 'The most recent scrobbles played on one weekday at one hour (UTC, Monday = 0)',
    description: '`window_days`: missing means 30, zero or less means all time.',
    access: 'user',
    query: z.object({
      dow: pathInt({ min: 0, max: 6 }),
      hour: pathInt({ min: 0, max: 23 }),
      window_days: queryInt(30, WINDOW_DAYS),
      limit: queryInt(50, { min: 1, max: 500 }),
    }),
    response: z.array(ScrobbleOut),
    handler: async ({ ctx, user, query }) => {
      const owner = await ownerOf(ctx.db, user.username);
      if (!owner) return [];
      return heatmapCell(ctx.db, owner, query, windowStart(query.window_days, nowUts()), query.limit);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/scrobbler/me/rediscover',
    tag: 'scrobbler',
    summary: 'Heavily played tracks not played in the last `not_played_days`, ranked by all-time plays',
    access: 'user',
    query: z.object({ not_played_days: queryInt(90, { min: 0, max: WINDOW_DAYS.max }), limit: queryInt(20, { min: 1, max: 500 }) }),
    response: z.array(RediscoverRow),
    handler: async ({ ctx, user, query }) => {
      const owner = await ownerOf(ctx.db, user.username);
      if (!owner) return [];
      return rediscover(ctx.db, owner, daysBefore(nowUts(), query.not_played_days), query.limit);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/scrobbler/me/new-artists',
    tag: 'scrobbler',
    summary: 'Artists whose first scrobble falls in the rolling window, each with its most played tracks',
    description: '`window_days` zero or less means all time.',
    access: 'user',
    query: z.object({
      window_days: queryInt(30, WINDOW_DAYS),
      limit: queryInt(20, { min: 1, max: 500 }),
      tracks_per_artist: queryInt(5, { min: 0, max: 100 }),
    }),
    response: z.array(NewArtist),
    handler: async ({ ctx, user, query }) => {
      const owner = await ownerOf(ctx.db, user.username);
      if (!owner) return [];
      return newArtists(ctx.db, owner, windowStart(query.window_days, nowUts()), query.limit, query.tracks_per_artist);
    },
  }),
];
