import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { RECENT_TRACKS_MAX_LIMIT, scrobblerClient } from '../../infra/upstreams/scrobbler/client.ts';
import { NotFound, PreconditionFailed } from '../../shared/errors.ts';
import { TaskStartedResponse } from '../../shared/tasks.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { findTask } from '../../query/tasks/task-history.queries.ts';
import { latestTaskStartedBy, mirrorOf } from '../../query/scrobbler/scrobbles.queries.ts';
import { BULK_IMPORT_TASK, type BulkImportParams, type ImportCursor } from './import-scrobbles.task.ts';
import { importPage } from './import-page.ts';
import { currentLink, sessionKeyOf, userSince } from './scrobbler-link.ts';
import { canonicalLinkRoutes } from './canonical-link.routes.ts';

/** Starts per user run one at a time in a process, so a double click starts one import, not two. */
const starting = new Map<string, Promise<unknown>>();
function oneStartAtATime<T>(userKey: string, work: () => Promise<T>): Promise<T> {
  const run = (starting.get(userKey) ?? Promise.resolve()).then(work, work);
  const tail = run.catch(() => undefined);
  starting.set(userKey, tail);
  void tail.then(() => starting.get(userKey) === tail && starting.delete(userKey));
  return run;
}

/** Where the caller's last unfinished import stopped, if it did not complete. */
async function resumeCursor(db: Parameters<typeof latestTaskStartedBy>[0], username: string, since: string): Promise<ImportCursor | undefined> {
  const last = await latestTaskStartedBy(db, BULK_IMPORT_TASK, username, since);
  if (!last || (last.status !== 'cancelled' && last.status !== 'failed')) return undefined;
  const cursor = (last.summary?.cursor ?? last.progress?.cursor) as ImportCursor | undefined;
  return cursor && Number.isInteger(cursor.page) && Number.isInteger(cursor.to) ? cursor : undefined;
}

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
    handler: ({ ctx, user }) => oneStartAtATime(usernameKey(user.username), async () => {
      if (!(await currentLink(ctx, user.username))) throw new PreconditionFailed('Scrobbler not linked');
      scrobblerClient(ctx.config).assertConfigured();
      const since = await userSince(ctx, user.username);
      const running = await latestTaskStartedBy(ctx.db, BULK_IMPORT_TASK, user.username, since, 'running');
      if (running) return { task_id: running.task_id, name: BULK_IMPORT_TASK, status: 'running' as const, resumed_from_page: null };
      const resume = await resumeCursor(ctx.db, user.username, since);
      const params: BulkImportParams = { username: user.username, ...(resume ? { resume } : {}) };
      const { task_id, position } = await ctx.tasks.start(BULK_IMPORT_TASK, { ...params }, user.username);
      await ctx.settle(position);
      return { task_id, name: BULK_IMPORT_TASK, status: 'running' as const, resumed_from_page: resume?.page ?? null };
    }),
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
      const { was_running, position } = await ctx.tasks.cancel(params.task_id, user.username);
      await ctx.settle(position);
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
      if (!link) return { inserted: 0, last_refreshed_at: null, scrobbler_username: null };
      const page = await scrobblerClient(ctx.config).recentTracks(link.scrobblerUsername, { page: 1, limit: RECENT_TRACKS_MAX_LIMIT, sessionKey: await sessionKeyOf(ctx, link) });
      const { inserted, result } = await importPage(ctx, {
        username: user.username,
        scrobblerUsername: link.scrobblerUsername,
        taskId: null,
        page: 1,
        totalPages: page.totalPages,
        rows: page.scrobbles,
        recordEmpty: true,
      });
      await ctx.settle(result?.position);
      const mirror = await mirrorOf(ctx.db, usernameKey(user.username), link.scrobblerUsername);
      return { inserted, last_refreshed_at: mirror?.last_refreshed_at?.toISOString() ?? null, scrobbler_username: link.scrobblerUsername };
    },
  }),
  ...canonicalLinkRoutes,
];
