import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { pageQuery } from '../../infra/http/params.ts';
import { BULK_IMPORT_TASK } from '../../shared/scrobbles/tasks.ts';
import { TaskRecord } from '../../shared/tasks.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { ScrobbleRecord, recentScrobbles } from '../../projectors/scrobbler/scrobbles.reads.ts';
import { latestTaskStartedBy, tasksStartedBy } from '../../projectors/tasks/task-history.reads.ts';
import { accountSinceOrEarliest, linkedScrobblerUsername } from '../../projectors/auth/users.reads.ts';

const Page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), limit: z.number().int() });

export const scrobblesQueryRoutes = [
  defineRoute({
    method: 'get',
    path: '/scrobbler/me/recent-tracks',
    tag: 'scrobbler',
    summary: 'The caller’s mirrored scrobbles, newest first (local mirror only, no upstream call)',
    description: 'Empty without a scrobbler link. Scrobbles with impossible timestamps are left out.',
    access: 'user',
    query: z.object(pageQuery(50)),
    response: Page(ScrobbleRecord),
    handler: async ({ ctx, user, query }) => {
      const linked = await linkedScrobblerUsername(ctx.db, user.username);
      if (!linked) return { items: [], total: 0, page: query.page, limit: query.limit };
      return recentScrobbles(ctx.db, usernameKey(user.username), linked, query.page, query.limit);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/scrobbler/me/scrobbles/bulk-import/current',
    tag: 'scrobbler',
    summary: 'The caller’s running full-history import, or null',
    access: 'user',
    response: TaskRecord.nullable(),
    handler: async ({ ctx, user }) => latestTaskStartedBy(ctx.db, BULK_IMPORT_TASK, user.username, await accountSinceOrEarliest(ctx.db, user.username), 'running'),
  }),
  defineRoute({
    method: 'get',
    path: '/scrobbler/me/scrobbles/bulk-import/history',
    tag: 'scrobbler',
    summary: 'The caller’s full-history imports, newest first',
    access: 'user',
    query: z.object(pageQuery(50)),
    response: Page(TaskRecord),
    handler: async ({ ctx, user, query }) => tasksStartedBy(ctx.db, BULK_IMPORT_TASK, user.username, await accountSinceOrEarliest(ctx.db, user.username), query.page, query.limit),
  }),
];
