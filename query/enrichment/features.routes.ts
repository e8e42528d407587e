import { z } from 'zod';
import { type Route, defineRoute } from '../../infra/http/define-route.ts';
import { errorCount } from '../../projectors/enrichment/enrichment-errors.reads.ts';
import { featuresStatus } from '../../projectors/enrichment/features.reads.ts';

const int = z.number().int();

export const featuresQueryRoutes: Route[] = [
  defineRoute({
    method: 'get',
    path: '/admin/features/status',
    tag: 'enrichment',
    summary: 'Recording ids looked up in the features database (found there or not), tracks with a metabase recording ref not looked up yet, error rows',
    access: 'admin',
    response: z.object({ looked_up: int, positive: int, negative: int, remaining: int, errors: int }),
    handler: async ({ ctx }) => ({ ...(await featuresStatus(ctx.db)), errors: await errorCount(ctx.db, 'features') }),
  }),
];
