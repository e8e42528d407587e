import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { RECENT_TRACKS_MAX_LIMIT, scrobblerClient } from '../../infra/upstreams/scrobbler/client.ts';
import { NotFound } from '../../shared/errors.ts';
import { TaskStartedResponse } from '../../shared/tasks.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { findTask } from '../../projectors/tasks/task-history.reads.ts';
import { mirrorOf } from '../../projectors/scrobbler/scrobbles.reads.ts';
import { BULK_IMPORT_TASK } from '../../shared/scrobbles/tasks.ts';
import { startBulkImport } from './bulk-import.ts';
import { importPage } from './import-page.ts';
import { currentLink, sessionKeyOf } from './scrobbler-link.ts';

export const mirrorRoutes = [
  defineRoute({
    method: 'post',
    path: '/scrobbler/me/scrobbles/bulk-import',
    tag: 'scrobbler',
    summary: 'Import the caller’s whole scrobble history as a task',
    description:
      'Answers at once with the task. Continues a cancelled or failed import from the page where it stopped; while one runs, answers that one. Re-importing adds nothing already mirrored.',
    access: 'user',
    response: TaskStartedResponse.extend({ resumed_from_page: z.number().int().nullable() }),
    errors: { 412: 'Scrobbler not linked', 503: 'The scrobbler is not configured' },
    handler: ({ ctx, user }) => startBulkImport(ctx, user.username),
  }),
  defineRoute({
    method: 'delete',
    path: '/scrobbler/me/scrobbles/bulk-import/{task_id}',
    tag: 'scrobbler',
    summary: 'Cancel the caller’s import; a later import continues where it stopped',
    access: 'user',
    params: z.object({ task_id: z.string().min(1).max(64) }),
    response: z.object({ task_id: z.string(), was_running: z.boolean() }),
    errors: { 404: 'No import of the caller with that id' },
    handler: async ({ ctx, user, params }) => {
      const task = await findTask(ctx.db, params.task_id);
      if (!task || task.name !== BULK_IMPORT_TASK || task.started_by !== user.username) throw new NotFound('Import not found');
      const { was_running } = await ctx.tasks.cancel(params.task_id, user.username);
      return { task_id: params.task_id, was_running };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/scrobbler/me/refresh-mirror',
    tag: 'scrobbler',
    summary: 'Bring the mirror up to date with the newest page of scrobbles (synchronous)',
    description: 'Answers how many scrobbles were new and the advanced `last_refreshed_at`. Without a link: nothing inserted, `last_refreshed_at` null.',
    access: 'user',
    response: z.object({ inserted: z.number().int(), last_refreshed_at: z.string().nullable(), scrobbler_username: z.string().nullable() }),
    errors: { 502: 'The scrobbler failed', 503: 'The scrobbler is not configured' },
    handler: async ({ ctx, user }) => {
      const link = await currentLink(ctx, user.username);
      if (!link) return { inserted: 0, scrobblerUsername: null };
      const page = await scrobblerClient(ctx.config).recentTracks(link.scrobblerUsername, { page: 1, limit: RECENT_TRACKS_MAX_LIMIT, sessionKey: await sessionKeyOf(ctx, link) });
      const { inserted } = await importPage(ctx, {
        username: user.username,
        scrobblerUsername: link.scrobblerUsername,
        taskId: null,
        page: 1,
        totalPages: page.totalPages,
        rows: page.scrobbles,
        recordEmpty: true,
      });
      return { inserted, scrobblerUsername: link.scrobblerUsername };
    },
    answer: async ({ ctx, user }, written) => {
      if (!written.scrobblerUsername) return { inserted: 0, last_refreshed_at: null, scrobbler_username: null };
      const mirror = await mirrorOf(ctx.db, usernameKey(user.username), written.scrobblerUsername);
      return { inserted: written.inserted, last_refreshed_at: mirror?.last_refreshed_at?.toISOString() ?? null, scrobbler_username: written.scrobblerUsername };
    },
  }),
];
