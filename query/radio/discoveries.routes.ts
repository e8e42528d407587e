import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { OFFSET, queryInt } from '../../infra/http/params.ts';
import { Discovery, discoverySummary, listDiscoveries } from '../../projectors/radio/radio-discoveries.reads.ts';
import { playableTerms } from '../assistant/library-vocabulary.queries.ts';

const TOP_ARTISTS = 10;

export const discoveryQueryRoutes = [
  defineRoute({
    method: 'get',
    path: '/radio/discoveries',
    tag: 'radio',
    summary: 'Tracks the radio wanted and could not play, by wanted count then similarity',
    description:
      'Similar tracks (from the scrobbler) the library lacks (`not_in_library`) or the media server does not hold (`not_playable`). A row whose track has since become playable stays, flagged `in_library`. Dismissed rows are left out.',
    access: 'user',
    query: z.object({ limit: queryInt(50, { min: 1, max: 500 }), offset: queryInt(0, OFFSET) }),
    response: z.object({ items: z.array(Discovery), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }),
    handler: ({ ctx, user, query }) => listDiscoveries(ctx.db, user.username, query.limit, query.offset),
  }),
  defineRoute({
    method: 'get',
    path: '/radio/discoveries/summary',
    tag: 'radio',
    summary: 'Discoveries counted by status, how many arrived in the library, and the artists wanted most',
    access: 'user',
    response: z.object({
      total: z.number().int(),
      by_status: z.object({ not_playable: z.number().int(), not_in_library: z.number().int() }),
      in_library: z.number().int(),
      top_artists: z.array(z.object({ artist_name: z.string(), wanted_count: z.number().int(), tracks: z.number().int() })),
    }),
    handler: ({ ctx, user }) => discoverySummary(ctx.db, user.username, TOP_ARTISTS),
  }),
  defineRoute({
    method: 'get',
    path: '/radio/moods',
    tag: 'radio',
    summary: 'The moods of the playable library with how many tracks and albums carry each',
    description: 'By count descending, then name. `limit` 0 means all. A mood here is a seed for `POST /radio/sessions` (`seed_kind: mood`).',
    access: 'user',
    query: z.object({ limit: queryInt(0, { min: 0, max: 10_000 }) }),
    response: z.array(z.object({ mood: z.string(), count: z.number().int() })),
    handler: async ({ ctx, query }) => (await playableTerms(ctx.db, 'tags', query.limit === 0 ? null : query.limit)).map((t) => ({ mood: t.name, count: t.count })),
  }),
];
