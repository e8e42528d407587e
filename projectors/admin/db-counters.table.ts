import type { ColumnType } from 'kysely';

/** bigint counters come back as strings on some drivers: read them through Number(). */
type Counter = ColumnType<string | number, number, number>;

/** event_counts: the log counted by stream category and event type, as it was appended. */
export interface EventCountsTable {
  category: string;
  event_type: string;
  events: Counter;
  /** Streams this type opened: events at revision 0. */
  streams: Counter;
  first_at: Date;
  last_at: Date;
}

/** ref_counts: external refs owned by a canonical entity, by kind and source (claims minus releases). */
export interface RefCountsTable {
  kind: string;
  source: string;
  refs: Counter;
}

/** counted_through: the last log position each counter included, so that a replayed event is not counted twice. */
export interface CountedThroughTable {
  counter: string;
  position: string;
}
