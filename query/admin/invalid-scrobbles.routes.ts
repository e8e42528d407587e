import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { pageQuery } from '../../infra/http/params.ts';
import { INVALID_KINDS, InvalidKindFilter as KindFilter } from '../../shared/scrobbles/invalid.ts';
import { ScrobbleRecord } from '../../projectors/scrobbler/scrobbles.reads.ts';
import { listInvalid } from '../../projectors/scrobbler/invalid-scrobbles.reads.ts';

const Counts = z.object(Object.fromEntries(['all', ...INVALID_KINDS].map((k) => [k, z.number().int()])) as Record<string, z.ZodNumber>);

export const invalidScrobblesRoutes = [
  defineRoute({
    method: 'get',
    path: '/admin/scrobbles/invalid',
    tag: 'admin',
    summary: 'Scrobbles with impossible timestamps, by bucket, with the count of every bucket',
    description: 'Buckets: `zero` (uts 0), `before_service` (before 2002-01-01), `future` (more than a day after import).',
    access: 'admin',
    query: z.object({ kind: KindFilter.default('all'), ...pageQuery(50) }),
    response: z.object({
      items: z.array(ScrobbleRecord.extend({ username: z.string() })),
      total: z.number().int(),
      page: z.number().int(),
      limit: z.number().int(),
      kind: KindFilter,
      counts_by_kind: Counts,
    }),
    handler: ({ ctx, query }) => listInvalid(ctx.db, query.kind, query.page, query.limit),
  }),
];
