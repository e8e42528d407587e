import type { ColumnType } from 'kysely';

/** One live scrobbler answer per (method, parameters), with the time it was fetched. */
export interface ScrobblerCacheTable {
  cache_key: string;
  method: string;
  /** The lowercased scrobbler username an answer is about, so a write can drop that user's answers; '' when public. */
  scope: string;
  payload: ColumnType<unknown, string, string>;
  fetched_at: Date;
}
