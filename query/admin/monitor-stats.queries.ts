import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import { type MonitorSlice, inSlice, sliceStart } from './monitor-events.queries.ts';

const Count = z.object({ value: z.string().nullable(), count: z.number().int() });
export const MonitorStats = z.object({
  days: z.number().int(),
  since: z.string().describe('the start of the window: `days` (or a narrower `since_days`) before now'),
  total: z.number().int(),
  by_event: z.array(Count),
  by_category: z.array(Count),
  by_media_type: z.array(Count).describe('`value` null: events without a media type (server and device events)'),
  by_user: z.array(Count).describe('`value` null: events without a user'),
  by_day: z.array(z.object({ day: z.string().describe('UTC date, YYYY-MM-DD'), count: z.number().int() })).describe('every day of the window, oldest first, zeros included'),
});
type Counts = z.infer<typeof Count>[];

/**
 * `grouping()` of (event, category, media_type, user_name, day) for each grouping set: a bit is
 * set for each column the row is not grouped by, which tells a real NULL group from a rolled-up one.
 */
const SETS = { event: 0b01111, category: 0b10111, media_type: 0b11011, user: 0b11101, day: 0b11110, total: 0b11111 } as const;

/** One pass over the slice: counts by event, category, media type, user and UTC day, and the total. */
export async function monitorStats(db: Kysely<Database>, slice: MonitorSlice & { days: number }, now: Date): Promise<z.infer<typeof MonitorStats>> {
  const day = sql<string>`to_char(received_at at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await inSlice(db, slice, now)
    .select([
      sql<number>`grouping(event, category, media_type, user_name, ${day})`.as('g'),
      sql<string | null>`coalesce(event, category, media_type, user_name, ${day})`.as('value'),
      sql<number>`count(*)::int`.as('n'),
    ])
    .groupBy(sql`grouping sets ((event), (category), (media_type), (user_name), (${day}), ())`)
    .execute();
  const by = (set: number): Counts =>
    rows
      .filter((r) => Number(r.g) === set)
      .map((r) => ({ value: r.value, count: r.n }))
      .sort((a, b) => b.count - a.count || String(a.value).localeCompare(String(b.value)));
  const since = sliceStart(slice.days, now)!;
  const perDay = new Map(by(SETS.day).map((c) => [c.value, c.count]));
  return {
    days: slice.days,
    since: since.toISOString(),
    total: rows.find((r) => Number(r.g) === SETS.total)?.n ?? 0,
    by_event: by(SETS.event),
    by_category: by(SETS.category),
    by_media_type: by(SETS.media_type),
    by_user: by(SETS.user),
    by_day: daysFrom(since, now).map((d) => ({ day: d, count: perDay.get(d) ?? 0 })),
  };
}

/** The UTC dates from `since` to `now`, both included. */
function daysFrom(since: Date, now: Date): string[] {
  const days: string[] = [];
  const cursor = new Date(Date.UTC(since.getUTCFullYear(), since.getUTCMonth(), since.getUTCDate()));
  while (cursor.getTime() <= now.getTime()) {
    days.push(cursor.toISOString().slice(0, 10));
    cursor.setUTCDate(cursor.getUTCDate() + 1);
  }
  return days;
}
