import type { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { type Route, defineRoute } from '../../infra/http/define-route.ts';
import { TaskStartedResponse } from '../../shared/tasks.ts';

/** How a drain's `limit` and `drain` work, for the route's description. */
export const drainsText = (batchCap: number, drainCap: number) =>
  `Without \`drain\` a run works \`limit\` items (at most ${batchCap}); with \`drain=true\` it walks the whole backlog, up to ${drainCap} items. A run continues where the last one stopped. Failures are error rows (GET /admin/canonical/enrich/errors).`;

/** `POST /admin/canonical/enrich/<path>` (or `path` itself when absolute): starts the drain's task (admin only) and answers its id at once. */
export function drainRoute(spec: {
  /** Under `/admin/canonical/enrich/`, unless it starts with `/`. */
  path: string;
  task: string;
  summary: string;
  description: string;
  query: z.ZodObject<z.ZodRawShape>;
  /** Throws (a 503 NotConfigured) before a task starts that could only fail. */
  ready?: (ctx: AppContext) => void;
}): Route {
  return defineRoute({
    method: 'post',
    path: spec.path.startsWith('/') ? spec.path : `/admin/canonical/enrich/${spec.path}`,
    tag: 'enrichment',
    summary: spec.summary,
    description: spec.description,
    access: 'admin',
    query: spec.query,
    response: TaskStartedResponse,
    ...(spec.ready ? { errors: { 503: 'The source is not configured' } } : {}),
    handler: async ({ ctx, query: params, user }) => {
      spec.ready?.(ctx);
      const { task_id } = await ctx.tasks.start(spec.task, params as Record<string, unknown>, user.username);
      return { task_id, name: spec.task, status: 'running' as const };
    },
  });
}
