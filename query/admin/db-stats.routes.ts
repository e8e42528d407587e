import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { queryInt } from '../../infra/http/params.ts';
import { DbStats, dbStats } from './db-stats.queries.ts';

export const dbStatsRoutes = [
  defineRoute({
    method: 'get',
    path: '/admin/db-stats',
    tag: 'admin',
    summary: 'Database dashboard, recomputed on every request',
    description:
      'Users by role, linked accounts per upstream and the connected users gone stale (linked, no sync or refresh in `stale_days`), canonical counts, scrobbles (invalid ones by kind), the event log, each read model with its rows, size and projector state (stalled ones named), tasks by status, and the database size. Large tables report estimated rows (`rows_estimated`).',
    access: 'admin',
    query: z.object({ stale_days: queryInt(14, { min: 0, max: 36_500 }).describe('a linked user with no sync or refresh in this many days is stale') }),
    response: DbStats,
    handler: ({ ctx, query }) => dbStats(ctx, query.stale_days),
  }),
];
