import type { ColumnType } from 'kysely';

/** monitor_events: one row per recorded delivery of the monitor intake. */
export interface MonitorEventsTable {
  monitor_event_id: string;
  source: string;
  delivery_id: string | null;
  event: string;
  category: string;
  media_type: string | null;
  /** The `user` of the event (a media server account name), not an account of this service. */
  user_name: string | null;
  title: string | null;
  artist: string | null;
  album: string | null;
  server: string | null;
  player: string | null;
  raw: ColumnType<Record<string, unknown>, string, string>;
  /** Lowercased text that `q` searches: title, artist, album, user, server, player, event. */
  search_text: string;
  received_at: Date;
}

/** monitor_event_values: the distinct values of each filter, with how many events carry them. */
export interface MonitorEventValuesTable {
  field: string;
  value: string;
  events: ColumnType<string | number, number, number>;
}
