import type { ColumnType } from 'kysely';

/**
 * One row per (drain, kind, entity) whose last attempt failed: `<source>:<kind>:<canonical_id>`.
 * `merged_away` rows belong to an entity merged into another: no read shows them, an unmerge does again.
 */
export interface EnrichmentErrorsTable {
  source: string;
  kind: string;
  canonical_id: string;
  error: string;
  attempts: number;
  first_seen: Date;
  last_seen: Date;
  merged_away: ColumnType<boolean, boolean | undefined, boolean>;
}
