import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { optionalQueryInt, pageQuery, queryInt } from '../../infra/http/params.ts';
import { FilterValues, type MonitorSlice, MonitorEventRecord, listMonitorEvents } from './monitor-events.queries.ts';
import { MonitorStats, monitorStats } from './monitor-stats.queries.ts';

/** An empty value (a client's "any" choice) filters nothing. */
const filter = (description: string) =>
  z.string().max(200).optional().transform((v) => (v === '' ? undefined : v)).describe(description);

const SliceQuery = {
  event: filter('exact event, as sent (`media.play`, `play`, …)'),
  category: filter('exact category (`playback`, `library`, `server`, `user`, …)'),
  media_type: filter('exact media type (`track`, `movie`, `episode`, …)'),
  user: filter('exact user name'),
  since_days: optionalQueryInt({ min: 0, max: 36_500 }).describe('only events received in the last this many days; 0 or absent: all'),
  q: z.string().max(200).optional().describe('text in the title, artist, album, user, server, player or event (case-insensitive)'),
};

type SliceInput = { event?: string | undefined; category?: string | undefined; media_type?: string | undefined; user?: string | undefined; q?: string | undefined; since_days?: number | undefined };

const sliceOf = (query: SliceInput, days: number | undefined): MonitorSlice => {
  const { since_days, ...filters } = query;
  const bounds = [days, since_days || undefined].filter((d): d is number => d !== undefined);
  return { ...filters, days: bounds.length ? Math.min(...bounds) : undefined };
};

export const monitorRoutes = [
  defineRoute({
    method: 'get',
    path: '/admin/monitor/events',
    tag: 'admin',
    summary: 'Recorded monitor events, newest first, with every value each filter can take',
    access: 'admin',
    query: z.object({ ...pageQuery(50), ...SliceQuery }),
    response: z.object({ items: z.array(MonitorEventRecord), total: z.number().int(), page: z.number().int(), limit: z.number().int(), filters: FilterValues }),
    handler: ({ ctx, query }) => listMonitorEvents(ctx.db, sliceOf(query, undefined), query.page, query.limit, new Date()),
  }),
  defineRoute({
    method: 'get',
    path: '/admin/monitor/stats',
    tag: 'admin',
    summary: 'Counts of monitor events by event, category, media type, user and day, over the same slice as the list',
    description: 'The window is the last `days` days (a narrower `since_days` narrows it); the other filters are those of `GET /admin/monitor/events`.',
    access: 'admin',
    query: z.object({ days: queryInt(30, { min: 1, max: 3650 }), ...SliceQuery }),
    response: MonitorStats,
    handler: ({ ctx, query }) => {
      const slice = sliceOf(query, query.days);
      return monitorStats(ctx.db, { ...slice, days: slice.days! }, new Date());
    },
  }),
];
