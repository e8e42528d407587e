import type { ColumnType } from 'kysely';

/** One raw metabase or cover-art answer per (kind, key), with the time it was fetched. */
export interface MetabaseCacheTable {
  kind: string;
  key: string;
  /** False for a cached miss (a barcode that matched no release). */
  found: boolean;
  payload: ColumnType<unknown, string, string>;
  fetched_at: Date;
}
