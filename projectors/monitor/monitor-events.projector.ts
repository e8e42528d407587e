import { type Transaction, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { Projector, StoredEvent } from '../../infra/projections/projector.ts';
import type { MonitorEvent } from '../../shared/events/monitor.events.ts';
import { FILTER_COLUMNS } from './monitor-events.filters.ts';

type Recorded = StoredEvent & MonitorEvent;

/**
 * monitor_events: the recorded deliveries, newest first by their time of arrival;
 * monitor_event_values: how many events carry each value of each filter, so that a listing shows
 * every filter's distinct values without scanning the events. Rows already there are skipped and
 * only the rows written are counted, so applying an event twice changes nothing.
 */
export const monitorEventsProjector: Projector = {
  name: 'monitor_events',
  version: 1,
  handles: ['MonitorEventRecorded'],
  tables: ['monitor_events', 'monitor_event_values'],
  async apply(trx, events) {
    const rows = (events as Recorded[]).map(({ data }) => ({
      monitor_event_id: data.monitor_event_id,
      source: data.source,
      delivery_id: data.delivery_id,
      event: data.event,
      category: data.category,
      media_type: data.media_type,
      user_name: data.user,
      title: data.title,
      artist: data.artist,
      album: data.album,
      server: data.server,
      player: data.player,
      raw: JSON.stringify(data.raw),
      search_text: searchText([data.title, data.artist, data.album, data.user, data.server, data.player, data.event]),
      received_at: new Date(data.at),
    }));
    if (rows.length === 0) return;
    const written = await trx
      .insertInto('monitor_events')
      .values(rows)
      .onConflict((oc) => oc.column('monitor_event_id').doNothing())
      .returning(FILTER_COLUMNS.map((f) => f.column))
      .execute();
    await countValues(trx, written);
  },
};

/** Lowercased here rather than in SQL: JavaScript folds every script's case, whatever the database's locale. */
const searchText = (parts: (string | null)[]) => parts.filter((p): p is string => p !== null).join('\n').toLowerCase();

async function countValues(trx: Transaction<Database>, written: Record<string, string | null>[]): Promise<void> {
  const counts = new Map<string, { field: string; value: string; events: number }>();
  for (const row of written) {
    for (const { field, column } of FILTER_COLUMNS) {
      const value = row[column];
      if (value === null || value === undefined) continue;
      const key = `${field}\u0000${value}`;
      const count = counts.get(key) ?? { field, value, events: 0 };
      count.events++;
      counts.set(key, count);
    }
  }
  if (counts.size === 0) return;
  await trx
    .insertInto('monitor_event_values')
    .values([...counts.values()])
    .onConflict((oc) => oc.columns(['field', 'value']).doUpdateSet({ events: sql`monitor_event_values.events + excluded.events` }))
    .execute();
}
