import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { type EntityKind, ownerOf } from '../scrobbler/listening.queries.ts';
import { totalsOf } from '../scrobbler/dashboard.queries.ts';
import { entityStats, mergeTarget } from './stats.queries.ts';

const PLURAL: Record<EntityKind, 'artists' | 'albums' | 'tracks'> = { artist: 'artists', album: 'albums', track: 'tracks' };

const Stats = z.object({
  kind: z.enum(['artist', 'album', 'track']),
  canonical_id: z.string().describe('the requested id, or its merge target'),
  plays: z.number().int(),
  first_played_at: z.string().nullable(),
  last_played_at: z.string().nullable(),
  plays_by_month: z.array(z.object({ month: z.string(), plays: z.number().int() })),
  rank: z.number().int().nullable().describe("1 = the caller's most played of this kind; null when never played"),
  ranked_among: z.number().int().describe('how many of this kind the caller has played'),
});

function statsRoute(kind: EntityKind) {
  return defineRoute({
    method: 'get',
    path: `/me/stats/${PLURAL[kind]}/{canonical_id}`,
    tag: 'me',
    summary: `The caller's plays of one ${kind}, from the scrobble mirror; merge chains are followed`,
    description: 'Without a scrobbler link, or never played: zero plays and no rank. Invalid scrobbles never count.',
    access: 'user',
    params: z.object({ canonical_id: z.string().min(1).max(64) }),
    response: Stats,
    handler: async ({ ctx, user, params }) => {
      const target = await mergeTarget(ctx.db, params.canonical_id);
      const owner = await ownerOf(ctx.db, user.username);
      const empty = { plays: 0, first_played_at: null, last_played_at: null, plays_by_month: [], rank: null };
      if (!owner) return { kind, canonical_id: target, ...empty, ranked_among: 0 };
      const totals = await totalsOf(ctx.db, owner);
      const stats = await entityStats(ctx.db, owner, kind, target);
      return { kind, canonical_id: target, ...stats, ranked_among: totals?.[PLURAL[kind]] ?? 0 };
    },
  });
}

export const statsRoutes = [statsRoute('artist'), statsRoute('album'), statsRoute('track')];
