import { z } from 'zod';
import { type Route, defineRoute } from '../../infra/http/define-route.ts';
import { errorCount } from '../../projectors/enrichment/enrichment-errors.reads.ts';
import { artistReprojectCoverage, audioQualityCoverage, tagsCoverage } from '../../projectors/enrichment/library-enrichment.reads.ts';

const int = z.number().int();
const TagCounts = z.object({ total: int, eligible: int, done: int, with_tags: int, with_moods: int, with_styles: int, backlog: int });

export const libraryCoverageRoutes: Route[] = [
  defineRoute({
    method: 'get',
    path: '/admin/canonical/enrich/audio-quality-coverage',
    tag: 'enrichment',
    summary: 'Tracks: live, with a mirrored media server file (eligible), done, lossless, backlog, error rows',
    access: 'admin',
    response: z.object({ total: int, eligible: int, done: int, lossless: int, backlog: int, errors: int }),
    handler: async ({ ctx }) => ({ ...(await audioQualityCoverage(ctx.db)), errors: await errorCount(ctx.db, 'audio_quality') }),
  }),
  defineRoute({
    method: 'get',
    path: '/admin/canonical/enrich/tags-coverage',
    tag: 'enrichment',
    summary: 'Albums and tracks: live (all eligible), unified, with tags, moods or styles, backlog; error rows',
    access: 'admin',
    response: z.object({ albums: TagCounts, tracks: TagCounts, errors: int }),
    handler: async ({ ctx }) => ({ ...(await tagsCoverage(ctx.db)), errors: await errorCount(ctx.db, 'tags') }),
  }),
  defineRoute({
    method: 'get',
    path: '/admin/canonical/enrich/artist-reproject-coverage',
    tag: 'enrichment',
    summary: 'Artists: live (all eligible), reprojected and current, with live albums, backlog, error rows',
    access: 'admin',
    response: z.object({ total: int, eligible: int, done: int, with_albums: int, backlog: int, errors: int }),
    handler: async ({ ctx }) => ({ ...(await artistReprojectCoverage(ctx.db)), errors: await errorCount(ctx.db, 'artist_reproject') }),
  }),
];
