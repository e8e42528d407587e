import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { Cursor, LogPoint } from '../../infra/eventstore/log-point.ts';
import { queryInt } from '../../infra/http/params.ts';
import { auditPage } from './audit.queries.ts';

const AuditEvent = z.object({
  /** Opaque: pass it as `after` to continue right after this event. */
  cursor: z.string(),
  stream_id: z.string(),
  revision: z.number().int(),
  type: z.string(),
  recorded_at: z.string(),
  data: z.record(z.string(), z.unknown()),
  metadata: z.record(z.string(), z.unknown()),
});

export const auditRoutes = [
  defineRoute({
    method: 'get',
    path: '/admin/audit/events',
    tag: 'admin',
    summary: 'Page through the event log as recorded, for an auditor to replay outside the service',
    description:
      'Log order. `after` is an opaque cursor from a previous page (`next`, or an event\'s `cursor`); cursors stay valid while appends continue. ' +
      '`stream_prefix` (e.g. `artist-`), `type`, and `from`/`to` (ISO times or log positions, inclusive) filter. A page may hold fewer than `limit` ' +
      'events when the filters skip many: go on with `next` while `has_more`. Payloads are as recorded; the log holds no secrets. See docs/time-travel.md.',
    access: 'admin',
    query: z.object({
      stream_prefix: z.string().min(1).max(200).optional(),
      type: z.string().min(1).max(100).optional(),
      from: LogPoint.optional(),
      to: LogPoint.optional(),
      after: Cursor.optional(),
      limit: queryInt(50, { min: 1, max: 1000 }),
    }),
    response: z.object({ events: z.array(AuditEvent), next: z.string().nullable(), has_more: z.boolean() }),
    handler: ({ ctx, query }) => auditPage(ctx.store, query),
  }),
];
