import { z } from 'zod';
import { type Route, defineRoute } from '../../infra/http/define-route.ts';
import { queryBool } from '../../infra/http/params.ts';
import { errorCount } from '../../projectors/enrichment/enrichment-errors.reads.ts';
import { lyricsCoverage, trackWithLyrics } from '../../projectors/enrichment/lyrics.reads.ts';
import { NotFound } from '../../shared/errors.ts';

const int = z.number().int();
const TrackLyrics = z.object({
  track_id: z.string(),
  state: z.enum(['found', 'instrumental', 'not_found']),
  plain: z.string().nullable(),
  synced: z.array(z.object({ time_ms: int, text: z.string() })).nullable(),
  /** Why there are none, when the look-up could not tell (not tried yet, provider down or too slow). */
  reason: z.string().nullable(),
});

export const lyricsQueryRoutes: Route[] = [
  defineRoute({
    method: 'get',
    path: '/tracks/{track_id}/lyrics',
    tag: 'enrichment',
    summary: 'The track’s lyrics: plain text and synced lines; none is 200 with state not_found',
    description: 'With `enrich=true` (the default) lyrics never looked up are fetched now: one request to the lyrics provider within 5 s, then `not_found` with a `reason` if it fails.',
    access: 'user',
    params: z.object({ track_id: z.string().min(1).max(64) }),
    query: z.object({ enrich: queryBool(true) }),
    response: TrackLyrics,
    errors: { 404: 'Unknown track' },
    handler: async ({ ctx, params, query, user }) => {
      const track = await trackWithLyrics(ctx.db, params.track_id);
      if (!track) throw new NotFound('track not found');
      if (track.lyrics) return { track_id: track.id, ...track.lyrics, reason: null };
      if (!query.enrich) return { track_id: track.id, state: 'not_found' as const, plain: null, synced: null, reason: 'not looked up yet' };
      return { track_id: track.id, ...(await ctx.commands.lyrics.fetch(track, user.username)) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/admin/canonical/enrich/lyrics-coverage',
    tag: 'enrichment',
    summary: 'Tracks with a title and an artist (eligible): with lyrics, synced, instrumentals, none, untried backlog, error rows',
    access: 'admin',
    response: z.object({ eligible: int, with_lyrics: int, synced: int, instrumentals: int, not_found: int, backlog: int, errors: int }),
    handler: async ({ ctx }) => ({ ...(await lyricsCoverage(ctx.db)), errors: await errorCount(ctx.db, 'lyrics') }),
  }),
];
