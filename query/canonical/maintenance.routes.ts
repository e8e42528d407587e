import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { PAGE, queryInt } from '../../infra/http/params.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { LibraryKind } from '../../shared/library.ts';
import { DuplicatesPage, duplicateGroups } from './duplicates.queries.ts';
import { CanonicalStats, canonicalStats } from './stats.queries.ts';

const SINGULAR: Record<LibraryKind, Kind> = { artists: 'artist', albums: 'album', tracks: 'track' };

export const maintenanceRoutes = [
  defineRoute({
    method: 'get',
    path: '/admin/canonical/duplicates',
    tag: 'admin',
    summary: 'Groups of live entities that share a name key, most candidates first',
    description: 'Artists group by folded name; albums and tracks by artist and folded title. `q` filters candidates before grouping.',
    access: 'admin',
    query: z.object({
      kind: LibraryKind,
      page: queryInt(1, PAGE),
      limit: queryInt(25, { min: 1, max: 200 }),
      q: z.string().max(200).optional(),
    }),
    response: DuplicatesPage,
    handler: async ({ ctx, query }) => ({ kind: query.kind, ...(await duplicateGroups(ctx.db, SINGULAR[query.kind], query.page, query.limit, query.q)) }),
  }),
  defineRoute({
    method: 'get',
    path: '/admin/canonical/stats',
    tag: 'admin',
    summary: 'Counts per canonical kind (live, merged, playable), total refs, refs per source',
    access: 'admin',
    response: CanonicalStats,
    handler: ({ ctx }) => canonicalStats(ctx.db),
  }),
];
