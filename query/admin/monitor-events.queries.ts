import { type Kysely, type Selectable, sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import { FILTER_COLUMNS, type FilterField } from '../../projectors/monitor/monitor-events.filters.ts';
import type { MonitorEventsTable } from '../../projectors/monitor/monitor-events.table.ts';
import { MonitorEventFacts, MonitorSource } from '../../shared/events/monitor.events.ts';
import { offsetOf } from '../../shared/paging.ts';

const DAY_MS = 86_400_000;

/** The slice both views describe: exact filter values, an age bound in days, and `q` in the event's text. */
export interface MonitorSlice {
  event?: string | undefined;
  category?: string | undefined;
  media_type?: string | undefined;
  user?: string | undefined;
  q?: string | undefined;
  /** Only events received in the last this many days; none: every event. */
  days?: number | undefined;
}

export const MonitorEventRecord = z.object({
  monitor_event_id: z.string(),
  source: MonitorSource,
  delivery_id: z.string().nullable(),
  ...MonitorEventFacts.shape,
  received_at: z.string(),
  raw: z.record(z.string(), z.unknown()).describe('the fields as the sender sent them, secrets removed'),
});

export const FilterValues = z.object({
  event: z.array(z.string()),
  category: z.array(z.string()),
  media_type: z.array(z.string()),
  user: z.array(z.string()),
});

export function sliceStart(days: number | undefined, now: Date): Date | undefined {
  return days === undefined ? undefined : new Date(now.getTime() - days * DAY_MS);
}

export function inSlice(db: Kysely<Database>, slice: MonitorSlice, now: Date) {
  let rows = db.selectFrom('monitor_events');
  for (const { field, column } of FILTER_COLUMNS) {
    const value = slice[field];
    if (value !== undefined) rows = rows.where(column, '=', value);
  }
  const since = sliceStart(slice.days, now);
  if (since) rows = rows.where('received_at', '>=', since);
  const q = slice.q?.trim().toLowerCase();
  // strpos, not LIKE: the text is matched as typed, `%` and `_` included.
  if (q) rows = rows.where(sql<boolean>`strpos(search_text, ${q}) > 0`);
  return rows;
}

function toRecord(row: Selectable<MonitorEventsTable>): z.infer<typeof MonitorEventRecord> {
  const { user_name, search_text: _, received_at, ...rest } = row;
  return { ...rest, source: rest.source as MonitorSource, user: user_name, received_at: received_at.toISOString() };
}

/** Newest first; `filters` holds every value each filter can take, whatever is selected. */
export async function listMonitorEvents(db: Kysely<Database>, slice: MonitorSlice, page: number, limit: number, now: Date) {
  const rows = inSlice(db, slice, now);
  const [items, total, filters] = await Promise.all([
    rows.selectAll().orderBy('received_at', 'desc').orderBy('monitor_event_id', 'desc').limit(limit).offset(offsetOf(page, limit)).execute(),
    rows.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    filterValues(db),
  ]);
  return { items: items.map(toRecord), total: total.n, page, limit, filters };
}

async function filterValues(db: Kysely<Database>): Promise<z.infer<typeof FilterValues>> {
  const rows = await db.selectFrom('monitor_event_values').select(['field', 'value']).where('events', '>', 0).orderBy('field').orderBy('value').execute();
  const values: Record<FilterField, string[]> = { event: [], category: [], media_type: [], user: [] };
  for (const r of rows) values[r.field as FilterField]?.push(r.value);
  return values;
}
