import { z } from 'zod';
import { type Route, defineRoute } from '../../infra/http/define-route.ts';
import { queryInt } from '../../infra/http/params.ts';
import { TaskStartedResponse } from '../../shared/tasks.ts';
import { BATCH_CAP, METABASE_DRAIN_CAP } from '../enrichment/metabase-drains.ts';
import { CATALOG_ALBUM_BATCH, ENRICH_CATALOG_ALBUMS_TASK } from './enrich-catalog-albums.task.ts';
import { LINK_ISRCS_TASK } from './link-isrcs.task.ts';

export const metabaseAdminCommandRoutes: Route[] = [
  defineRoute({
    method: 'post',
    path: '/metabase/admin/enrich-catalog-albums',
    tag: 'metabase',
    summary: 'One batch of albums with a UPC and no metabase ref, linked by barcode (album, release group, tracks by position), as a task',
    description: `A batch is ${CATALOG_ALBUM_BATCH} albums (two metabase requests each, paced at one a second); run it again for the next batch, which starts after this one.`,
    access: 'admin',
    response: TaskStartedResponse,
    handler: async ({ ctx, user }) => {
      const { task_id } = await ctx.tasks.start(ENRICH_CATALOG_ALBUMS_TASK, { limit: CATALOG_ALBUM_BATCH }, user.username);
      return { task_id, name: ENRICH_CATALOG_ALBUMS_TASK, status: 'running' as const };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/metabase/admin/link-isrcs',
    tag: 'metabase',
    summary: 'Bind canonical tracks to metabase recordings by ISRC, as a task',
    description: `\`limit\` tracks per run (at most ${BATCH_CAP}), one paced request each; failures are \`isrc_link\` error rows.`,
    access: 'admin',
    query: z.object({ limit: queryInt(200, { min: 1, max: METABASE_DRAIN_CAP }) }),
    response: TaskStartedResponse,
    handler: async ({ ctx, query, user }) => {
      const { task_id } = await ctx.tasks.start(LINK_ISRCS_TASK, { limit: query.limit }, user.username);
      return { task_id, name: LINK_ISRCS_TASK, status: 'running' as const };
    },
  }),
];
