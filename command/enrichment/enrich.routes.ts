import { z } from 'zod';
import { type Route, defineRoute } from '../../infra/http/define-route.ts';
import { queryBool, queryInt } from '../../infra/http/params.ts';
import { ErrorSource } from '../../shared/events/enrichment.events.ts';
import { Kind } from '../../shared/events/canonical.events.ts';
import { drainRoute, drainsText } from './drain-route.ts';
import { enrichmentCommands } from './enrichment-commands.ts';
import { HYDRATE_MB_TASK } from './hydrate-mb.task.ts';
import { MB_CREDITS_TASK } from './mb-credits.task.ts';
import { MB_RELATIONS_TASK } from './mb-relations.task.ts';
import { BATCH_CAP, METABASE_DRAIN_CAP } from './metabase-drains.ts';
import { PROMOTABLE, PROMOTE_SCROBBLER_TASK } from './promote-scrobbler.task.ts';

const limit = (fallback: number) => queryInt(fallback, { min: 1, max: METABASE_DRAIN_CAP });
const drain = { drain: queryBool(false) };
const DRAINS = `${drainsText(BATCH_CAP, METABASE_DRAIN_CAP)} The metabase is paced at one request a second.`;

const metabaseDrain = (path: string, task: string, summary: string, query: z.ZodObject<z.ZodRawShape>): Route => drainRoute({ path, task, summary, description: DRAINS, query });

export const enrichRoutes: Route[] = [
  metabaseDrain('hydrate-mb', HYDRATE_MB_TASK, 'Fetch the metabase entity of every metabase ref not cached yet, as a task', z.object({ kind: Kind.default('track'), limit: limit(200), ...drain })),
  metabaseDrain('promote-scrobbler-mbids', PROMOTE_SCROBBLER_TASK, 'Promote the MBIDs the scrobbler reported to metabase refs (artists and tracks), conflict-guarded, as a task', z.object({ kind: z.enum(PROMOTABLE).default('track'), limit: limit(200) })),
  metabaseDrain('mb-relations', MB_RELATIONS_TASK, 'External links and membership from the metabase onto artists, as a task', z.object({ limit: limit(200), ...drain })),
  metabaseDrain('mb-credits', MB_CREDITS_TASK, 'Composer, lyricist and writer credits from the metabase onto tracks, as a task', z.object({ limit: limit(100), ...drain })),
  defineRoute({
    method: 'delete',
    path: '/admin/canonical/enrich/errors',
    tag: 'enrichment',
    summary: 'Clear the enrichment error rows, of one source or all',
    access: 'admin',
    query: z.object({ source: ErrorSource.optional() }),
    response: z.object({ cleared: z.literal(true), source: z.string().nullable() }),
    handler: async ({ ctx, query, user }) => {
      await enrichmentCommands(ctx, user.username).clearErrors(query.source ?? null);
      return { cleared: true as const, source: query.source ?? null };
    },
  }),
];
