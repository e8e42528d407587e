import { defineRoute } from '../../infra/http/define-route.ts';
import { TaskStartedResponse } from '../../shared/tasks.ts';
import { MIGRATE_TASK } from './migrate.task.ts';

export const migrateRoutes = [
  defineRoute({
    method: 'post',
    path: '/admin/canonical/migrate',
    tag: 'admin',
    summary: 'Re-key user data onto the ends of merge chains, as a task',
    description: 'Idempotent. Only user-action rows whose id the log never saw are deleted.',
    access: 'admin',
    response: TaskStartedResponse,
    handler: async ({ ctx, user }) => {
      const { task_id } = await ctx.tasks.start(MIGRATE_TASK, {}, user.username);
      return { task_id, name: MIGRATE_TASK, status: 'running' as const };
    },
  }),
];
