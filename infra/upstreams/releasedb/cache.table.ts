import type { ColumnType } from 'kysely';

/** The releasedb's search row of each release an album was linked to: its styles, genres and labels, with the fetch time. */
export interface ReleasedbCacheTable {
  release_id: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  fetched_at: Date;
}
