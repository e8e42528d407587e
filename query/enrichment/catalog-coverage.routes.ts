import { z } from 'zod';
import { type Route, defineRoute } from '../../infra/http/define-route.ts';
import { errorCount } from '../../projectors/enrichment/enrichment-errors.reads.ts';
import { catalogCoverage, storeCoverage } from '../../projectors/enrichment/catalog-discovery.reads.ts';
import { albumTrackCoverage } from '../../projectors/enrichment/album-tracks.reads.ts';
import { releasedbCoverage } from '../../projectors/enrichment/releasedb.reads.ts';

const int = z.number().int();
const Counts = z.object({ total: int, with_catalog_ref: int, eligible: int, backlog: int });
const StoreCounts = z.object({ total: int, with_store_ref: int, eligible: int, backlog: int });

export const catalogCoverageRoutes: Route[] = [
  defineRoute({
    method: 'get',
    path: '/admin/canonical/enrich/catalog-coverage',
    tag: 'enrichment',
    summary: 'Per kind: live entities, with a catalog ref, findable by exact id (ISRC, UPC, a catalog-linked album or track), backlog; error rows',
    access: 'admin',
    response: z.object({ artists: Counts, albums: Counts, tracks: Counts, errors: int }),
    handler: async ({ ctx }) => ({ ...(await catalogCoverage(ctx.db)), errors: await errorCount(ctx.db, 'catalog_discover') }),
  }),
  defineRoute({
    method: 'get',
    path: '/admin/canonical/enrich/store-coverage',
    tag: 'enrichment',
    summary: 'Albums and tracks: live, with a store ref, findable by UPC or ISRC, backlog; error rows',
    access: 'admin',
    response: z.object({ albums: StoreCounts, tracks: StoreCounts, errors: int }),
    handler: async ({ ctx }) => ({ ...(await storeCoverage(ctx.db)), errors: await errorCount(ctx.db, 'store_discover') }),
  }),
  defineRoute({
    method: 'get',
    path: '/admin/canonical/enrich/releasedb-coverage',
    tag: 'enrichment',
    summary: 'Albums: live, with a releasedb ref, with a UPC (eligible), discover backlog, cached releases, reproject backlog; error rows of both drains',
    access: 'admin',
    response: z.object({ total: int, with_releasedb_ref: int, eligible: int, backlog: int, cached: int, reproject_backlog: int, errors: int }),
    handler: async ({ ctx }) => ({ ...(await releasedbCoverage(ctx.db)), errors: (await errorCount(ctx.db, 'releasedb_discover')) + (await errorCount(ctx.db, 'releasedb_reproject')) }),
  }),
  defineRoute({
    method: 'get',
    path: '/admin/canonical/enrich/album-track-coverage',
    tag: 'enrichment',
    summary: 'Albums with a catalog ref (eligible): all tracks linked (done), some not (backlog); their tracks and how many are linked; error rows',
    access: 'admin',
    response: z.object({ source: z.string(), eligible: int, done: int, backlog: int, tracks: int, tracks_linked: int, errors: int }),
    handler: async ({ ctx }) => ({ ...(await albumTrackCoverage(ctx.db, 'catalog')), errors: await errorCount(ctx.db, 'album_tracks') }),
  }),
];
