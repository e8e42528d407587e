import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { queryInt } from '../../infra/http/params.ts';
import { TaskStartedResponse } from '../../shared/tasks.ts';
import { DISCOVERY_ALBUMS_MAX, DISCOVERY_ALBUMS_TASK } from './discovery-albums.task.ts';

export const discoveryAlbumsCommandRoutes = [
  defineRoute({
    method: 'post',
    path: '/admin/radio/discovery-albums/backfill',
    tag: 'radio',
    summary: "Fill the album of radio discoveries that have none (every user's), as a task",
    description:
      '`limit` bounds the rows scanned per run (those without an album, oldest wanted first). Each asks the scrobbler\'s track info, then the catalog (a search by title, the hit by the same artist). ' +
      '`album_id` becomes the canonical album when the library holds one of that title by that artist, else the catalog album id. The summary counts `filled`, `not_found` and `failed`.',
    access: 'admin',
    query: z.object({ limit: queryInt(200, { min: 1, max: DISCOVERY_ALBUMS_MAX }) }),
    response: TaskStartedResponse,
    handler: async ({ ctx, query, user }) => {
      const { task_id } = await ctx.tasks.start(DISCOVERY_ALBUMS_TASK, { limit: query.limit }, user.username);
      return { task_id, name: DISCOVERY_ALBUMS_TASK, status: 'running' as const };
    },
  }),
];
