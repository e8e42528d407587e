import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { PAGE, queryInt } from '../../infra/http/params.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { LibraryFilter, LibraryGenre, type LibraryKind, LibrarySearch, LibrarySort } from '../../shared/library.ts';
import { LibraryPage, albumGenres, libraryPage } from './library.queries.ts';

const SINGULAR: Record<LibraryKind, Kind> = { artists: 'artist', albums: 'album', tracks: 'track' };

const ListQuery = z.object({
  sort: LibrarySort.default('recent'),
  filter: LibraryFilter.optional(),
  genre: LibraryGenre.optional(),
  q: LibrarySearch.optional().describe('Substring of the folded name'),
  page: queryInt(1, PAGE),
  page_size: queryInt(50, { min: 1, max: 500 }),
});

function listRoute(kind: LibraryKind) {
  return defineRoute({
    method: 'get',
    path: `/library/${kind}`,
    tag: 'library',
    summary: `Live canonical ${kind}, paged`,
    description:
      'Merged-away entities are left out. `filter`: playable (held by the mediaserver), not_playable, multi_source, single_source, all. ' +
      '`genre` matches album genres (a track or an artist through its albums).',
    access: 'user',
    query: ListQuery,
    response: LibraryPage,
    handler: ({ ctx, query }) => libraryPage(ctx, SINGULAR[kind], query),
  });
}

export const libraryRoutes = [
  listRoute('artists'),
  listRoute('albums'),
  listRoute('tracks'),
  defineRoute({
    method: 'get',
    path: '/library/genres',
    tag: 'library',
    summary: 'Distinct album genres with album counts, most common first',
    access: 'user',
    query: z.object({ limit: queryInt(0, { min: 0, max: 10_000 }).describe('0 means all') }),
    response: z.array(z.object({ genre: z.string(), count: z.number().int() })),
    handler: ({ ctx, query }) => albumGenres(ctx.db, query.limit),
  }),
];
