/** One row per (drain, kind, entity) whose last attempt failed: `<source>:<kind>:<canonical_id>`. */
export interface EnrichmentErrorsTable {
  source: string;
  kind: string;
  canonical_id: string;
  error: string;
  attempts: number;
  first_seen: Date;
  last_seen: Date;
}
