import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { NotFound } from '../../shared/errors.ts';
import { pageQuery } from '../../infra/http/params.ts';
import { TASK_STATUS_FILTERS, TaskRecord } from '../../shared/tasks.ts';
import { findRunningTask, findTask, listTasks, tasksOf } from '../../projectors/tasks/task-history.reads.ts';

const TaskId = z.object({ task_id: z.string().min(1).max(64) });

export const taskHistoryRoutes = [
  defineRoute({
    method: 'get',
    path: '/admin/task-history',
    tag: 'admin',
    summary: 'Task runs, newest first, with the distinct names and counts per status',
    access: 'admin',
    query: z.object({ ...pageQuery(50), name: z.string().optional(), status: z.enum(TASK_STATUS_FILTERS).optional() }),
    response: z.object({
      items: z.array(TaskRecord),
      total: z.number().int(),
      page: z.number().int(),
      limit: z.number().int(),
      names: z.array(z.string()),
      counts_by_status: z.record(z.string(), z.number().int()),
    }),
    handler: ({ ctx, query }) => listTasks(ctx.db, query),
  }),
  defineRoute({
    method: 'get',
    path: '/admin/task-history/running',
    tag: 'admin',
    summary: 'The running task of a family (name prefix), or null',
    access: 'admin',
    query: z.object({ name_prefix: z.string().optional() }),
    response: TaskRecord.nullable(),
    handler: ({ ctx, query }) => findRunningTask(ctx.db, query.name_prefix),
  }),
  defineRoute({
    method: 'get',
    path: '/admin/task-history/{task_id}',
    tag: 'admin',
    summary: 'One task run: status, progress and summary',
    access: 'admin',
    params: TaskId,
    response: TaskRecord,
    errors: { 404: 'Unknown task' },
    handler: async ({ ctx, params }) => (await findTask(ctx.db, params.task_id)) ?? notFound(),
  }),
  defineRoute({
    method: 'get',
    path: '/me/tasks',
    tag: 'me',
    summary: "The caller's tasks, newest first",
    description: 'Only tasks the caller started; each with its status, progress (`percent` and `eta_seconds` when the total is known) and summary.',
    access: 'user',
    query: z.object(pageQuery(20, 100)),
    response: z.object({ items: z.array(TaskRecord), total: z.number().int(), page: z.number().int(), limit: z.number().int() }),
    handler: ({ ctx, query, user }) => tasksOf(ctx.db, user.username, query.page, query.limit),
  }),
  defineRoute({
    method: 'get',
    path: '/me/tasks/{task_id}',
    tag: 'me',
    summary: 'A task the caller started',
    access: 'user',
    params: TaskId,
    response: TaskRecord,
    errors: { 404: 'Unknown task, or not started by the caller' },
    handler: async ({ ctx, params, user }) => {
      const task = await findTask(ctx.db, params.task_id);
      return task && task.started_by === user.username ? task : notFound();
    },
  }),
];

function notFound(): never {
  throw new NotFound('Task not found');
}
