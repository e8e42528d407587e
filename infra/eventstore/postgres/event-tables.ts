import type { ColumnType, Generated } from 'kysely';

export interface EventsTable {
  global_position: Generated<string>;
  /** xid8 of the appending transaction: readers order by it to never skip a late commit. */
  transaction_id: Generated<string>;
  stream_id: string;
  stream_revision: number;
  event_id: string;
  event_type: string;
  data: ColumnType<unknown, string, string>;
  metadata: ColumnType<Record<string, unknown>, string, string>;
  created_at: Generated<Date>;
}

export interface StreamsTable {
  stream_id: string;
  revision: number;
}
