import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { type Route, defineRoute } from '../../infra/http/define-route.ts';
import { cachedCounts } from '../../infra/upstreams/metabase/cache.ts';
import { metabaseUserAgent } from '../../infra/upstreams/metabase/client.ts';
import { metabase } from '../../infra/upstreams/metabase/metabase.ts';
import { METABASE_MIN_INTERVAL_MS } from '../../infra/upstreams/metabase/musicbrainz.ts';
import { listErrors } from '../../projectors/enrichment/enrichment-errors.reads.ts';
import { enrichmentCoverage, isrcLinkStatus, mbCoverage } from '../../projectors/enrichment/metabase-enrichment.reads.ts';
import { previousRuns } from '../../projectors/tasks/task-history.reads.ts';
import { METABASE_ERROR_SOURCES } from '../../shared/enrichment/error-sources.ts';
import { messageOf } from '../../shared/errors.ts';
import { TaskRecord } from '../../shared/tasks.ts';

/** The tasks whose runs the health view lists (the metabase drains and batches). */
const METABASE_TASKS = ['metabase.enrich-catalog-albums', 'metabase.link-isrcs', 'enrich.hydrate-mb', 'enrich.promote-scrobbler-mbids', 'enrich.mb-relations', 'enrich.mb-credits'];
const RECENT_RUNS = 10;

const IsrcStatus = z.object({ tracks_with_isrc: z.number().int(), with_recording_ref: z.number().int(), backlog: z.number().int(), errors: z.number().int() });

async function isrcStatus(ctx: AppContext) {
  const errors = (await listErrors(ctx.db, { source: 'isrc_link', limit: 1 })).counts.isrc_link ?? 0;
  return { ...(await isrcLinkStatus(ctx.db)), errors };
}

/** One live lookup through the pacer: whether the metabase answers, and how fast. */
async function ping(ctx: AppContext) {
  try {
    return { ok: true, latency_ms: await metabase(ctx).ping(), error: null };
  } catch (error) {
    return { ok: false, latency_ms: null, error: messageOf(error) };
  }
}

async function recentRuns(ctx: AppContext) {
  const runs = (await Promise.all(METABASE_TASKS.map((name) => previousRuns(ctx.db, name, RECENT_RUNS)))).flat();
  return runs.sort((a, b) => (a.started_at < b.started_at ? 1 : a.started_at > b.started_at ? -1 : 0)).slice(0, RECENT_RUNS);
}

export const metabaseAdminQueryRoutes: Route[] = [
  defineRoute({
    method: 'get',
    path: '/metabase/admin/isrc-link-status',
    tag: 'metabase',
    summary: 'Canonical tracks with an ISRC, those already bound to a metabase recording, the backlog, and open isrc_link errors',
    access: 'admin',
    response: IsrcStatus,
    handler: ({ ctx }) => isrcStatus(ctx),
  }),
  defineRoute({
    method: 'get',
    path: '/metabase/admin/health',
    tag: 'metabase',
    summary: 'The metabase as this service sees it: configuration, cached payloads per collection, enrichment progress, recent runs, and one live ping',
    description: 'The ping is a real request (paced like every other): it may wait up to a second behind a running drain.',
    access: 'admin',
    response: z.object({
      configuration: z.object({
        api_url: z.string(), coverart_url: z.string(), user_agent: z.string(), contact_configured: z.boolean(), pacing: z.string(), min_interval_ms: z.number().int(),
      }),
      cache: z.record(z.string(), z.number().int()),
      enrichment: z.object({
        coverage: z.record(z.string(), z.unknown()),
        relations: z.record(z.string(), z.number().int()),
        credits: z.record(z.string(), z.number().int()),
        isrc: IsrcStatus,
        errors: z.record(z.string(), z.number().int()),
      }),
      recent_runs: z.array(TaskRecord),
      ping: z.object({ ok: z.boolean(), latency_ms: z.number().int().nullable(), error: z.string().nullable() }),
    }),
    handler: async ({ ctx }) => {
      const { config } = ctx;
      const [cache, coverage, relations, credits, isrc, errors, runs, live] = await Promise.all([
        cachedCounts(ctx.db), mbCoverage(ctx.db), enrichmentCoverage(ctx.db, 'artist', 'external_links'), enrichmentCoverage(ctx.db, 'track', 'credits'),
        isrcStatus(ctx), listErrors(ctx.db, { limit: 1 }), recentRuns(ctx), ping(ctx),
      ]);
      return {
        configuration: {
          api_url: config.METABASE_API_URL,
          coverart_url: config.COVERART_API_URL,
          user_agent: metabaseUserAgent(config.METABASE_CONTACT),
          contact_configured: config.METABASE_CONTACT !== undefined,
          pacing: config.UPSTREAM_PACING,
          min_interval_ms: METABASE_MIN_INTERVAL_MS,
        },
        cache,
        enrichment: {
          coverage,
          relations,
          credits,
          isrc,
          errors: Object.fromEntries(METABASE_ERROR_SOURCES.map((s) => [s, errors.counts[s] ?? 0])),
        },
        recent_runs: runs,
        ping: live,
      };
    },
  }),
];
