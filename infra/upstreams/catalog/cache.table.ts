import type { ColumnType } from 'kysely';

/** One fetched catalog payload per (kind, id), with the time it was fetched. */
export interface CatalogCacheTable {
  kind: string;
  catalog_id: string;
  payload: ColumnType<unknown, string, string>;
  fetched_at: Date;
}
