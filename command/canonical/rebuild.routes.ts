import { defineRoute } from '../../infra/http/define-route.ts';
import { TaskStartedResponse } from '../../shared/tasks.ts';
import { REBUILD_TASK } from './rebuild.task.ts';

export const rebuildRoutes = [
  defineRoute({
    method: 'post',
    path: '/admin/canonical/rebuild',
    tag: 'admin',
    summary: 'Rebuild the canonical read models from the event log, as a task',
    access: 'admin',
    response: TaskStartedResponse,
    handler: async ({ ctx, user }) => {
      const { task_id } = await ctx.tasks.start(REBUILD_TASK, {}, user.username);
      return { task_id, name: REBUILD_TASK, status: 'running' as const };
    },
  }),
];
