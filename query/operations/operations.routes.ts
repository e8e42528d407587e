import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { Readiness, readiness } from './readiness.queries.ts';

/** For load balancers, orchestrators and monitoring: unauthenticated and cheap. */
export const operationsRoutes = [
  defineRoute({
    method: 'get',
    path: '/healthz',
    tag: 'operations',
    summary: 'The process is up',
    access: 'public',
    response: z.object({ status: z.literal('ok') }),
    handler: async () => ({ status: 'ok' as const }),
  }),
  defineRoute({
    method: 'get',
    path: '/readyz',
    tag: 'operations',
    summary: 'Ready to serve: database reachable, migrations applied, no stalled projector',
    description:
      'Each projector with its state (`live`, `rebuilding`, `retrying`, `stalled`), position and lag. 503 with the same body, its `reasons` saying what is wrong. The stream and error text of a failing projector are shown to admins only.',
    access: 'public',
    response: Readiness,
    alsoAnswers: { 503: 'Not ready: the same report, with its reasons' },
    raw: true,
    handler: async ({ ctx, user, res }) => {
      const report = await readiness(ctx, { details: user?.role === 'admin' });
      res.status(report.status === 'ready' ? 200 : 503).json(report);
    },
  }),
];
