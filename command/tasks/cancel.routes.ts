import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';

export const cancelTaskRoutes = [
  defineRoute({
    method: 'post',
    path: '/admin/task-history/{task_id}/cancel',
    tag: 'admin',
    summary: 'Cooperative cancel: the task stops at its next checkpoint and is recorded cancelled',
    access: 'admin',
    params: z.object({ task_id: z.string().min(1).max(64) }),
    response: z.object({ task_id: z.string(), was_running: z.boolean() }),
    errors: { 404: 'Unknown task' },
    handler: async ({ ctx, params, user }) => {
      const { was_running } = await ctx.tasks.cancel(params.task_id, user.username);
      return { task_id: params.task_id, was_running };
    },
  }),
];
