import { z } from 'zod';
import { type Route, defineRoute } from '../../infra/http/define-route.ts';
import { queryInt } from '../../infra/http/params.ts';
import { errorCount, listErrors } from '../../projectors/enrichment/enrichment-errors.reads.ts';
import { enrichmentCoverage, mbCoverage } from '../../projectors/enrichment/metabase-enrichment.reads.ts';
import { ERROR_SOURCES } from '../../shared/enrichment/error-sources.ts';
import { ErrorSource } from '../../shared/events/enrichment.events.ts';
import { Kind } from '../../shared/events/canonical.events.ts';

const Counts = z.object({ total: z.number().int(), with_metabase_ref: z.number().int(), cached: z.number().int(), not_cached: z.number().int() });
const Coverage = z.object({ eligible: z.number().int(), enriched: z.number().int(), with_data: z.number().int(), backlog: z.number().int(), errors: z.number().int() });

export const enrichmentCoverageRoutes: Route[] = [
  defineRoute({
    method: 'get',
    path: '/admin/canonical/enrich/mb-coverage',
    tag: 'enrichment',
    summary: 'Per kind: live entities, those with a metabase ref, and those whose metabase entity is cached (hydrated)',
    access: 'admin',
    response: z.object({ artists: Counts, albums: Counts, tracks: Counts }),
    handler: async ({ ctx }) => (await mbCoverage(ctx.db)) as { artists: z.infer<typeof Counts>; albums: z.infer<typeof Counts>; tracks: z.infer<typeof Counts> },
  }),
  defineRoute({
    method: 'get',
    path: '/admin/canonical/enrich/mb-relations-coverage',
    tag: 'enrichment',
    summary: 'Artists with a metabase ref: how many have their links and membership looked up, how many have some, the backlog',
    access: 'admin',
    response: Coverage,
    handler: async ({ ctx }) => ({ ...(await enrichmentCoverage(ctx.db, 'artist', 'external_links')), errors: await errorCount(ctx.db, 'mb_relations') }),
  }),
  defineRoute({
    method: 'get',
    path: '/admin/canonical/enrich/mb-credits-coverage',
    tag: 'enrichment',
    summary: 'Tracks with a metabase ref: how many have their writing credits looked up, how many have some, the backlog',
    access: 'admin',
    response: Coverage,
    handler: async ({ ctx }) => ({ ...(await enrichmentCoverage(ctx.db, 'track', 'credits')), errors: await errorCount(ctx.db, 'mb_credits') }),
  }),
  defineRoute({
    method: 'get',
    path: '/admin/canonical/enrich/errors',
    tag: 'enrichment',
    summary: 'Enrichment error rows (one per source, kind and entity, newest first), with a count per source',
    description: `Sources: ${ERROR_SOURCES.map((s) => `\`${s}\``).join(', ')}. Filters apply to the rows; \`counts\` covers every row.`,
    access: 'admin',
    query: z.object({ source: ErrorSource.optional(), kind: Kind.optional(), limit: queryInt(200, { min: 1, max: 5000 }) }),
    response: z.object({
      items: z.array(
        z.object({
          key: z.string(), source: z.string(), kind: z.string(), canonical_id: z.string(), error: z.string(), attempts: z.number().int(), first_seen: z.string(), last_seen: z.string(),
        }),
      ),
      counts: z.record(z.string(), z.number().int()),
    }),
    handler: ({ ctx, query }) => listErrors(ctx.db, query),
  }),
];
