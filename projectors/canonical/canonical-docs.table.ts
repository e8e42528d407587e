import type { ColumnType } from 'kysely';

type Json<T> = ColumnType<T, string, string>;

/** One row per canonical artist, album or track, merged-away ones included (tombstoned). */
export interface CanonicalDocsTable {
  id: string;
  kind: string;
  name: string | null;
  name_folded: string | null;
  artist_id: string | null;
  artist_name: string | null;
  album_id: string | null;
  album_title: string | null;
  disc: number | null;
  track_number: number | null;
  isrc: string | null;
  upc: string | null;
  mbid: string | null;
  year: number | null;
  cover_url: string | null;
  genres: Json<string[]>;
  tags: Json<string[]>;
  duration_ms: number | null;
  preview_url: string | null;
  catalog_id: string | null;
  primary_type: string | null;
  secondary_types: Json<string[]>;
  audio_quality: Json<Record<string, unknown> | null>;
  sources: Json<Record<string, boolean>>;
  source_count: number;
  alt_names: Json<string[]>;
  /** Null when no source reported the field (never enriched), unlike an empty list. */
  external_links: ColumnType<Record<string, unknown>[] | null, string | null, string | null>;
  members: ColumnType<Record<string, unknown>[] | null, string | null, string | null>;
  member_of: ColumnType<Record<string, unknown>[] | null, string | null, string | null>;
  affiliations: ColumnType<Record<string, unknown>[] | null, string | null, string | null>;
  credits: ColumnType<Record<string, Record<string, unknown>[]> | null, string | null, string | null>;
  moods: Json<string[]>;
  labels: Json<string[]>;
  /** Tracks: the features database's audio features; null until looked up, and when it has none. */
  feature_data: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  styles: Json<string[]>;
  discography: ColumnType<Record<string, number | null> | null, string | null, string | null>;
  /** `<source>|<external_id>` → facts that ref reported. */
  facts: Json<Record<string, unknown>>;
  merged_into: string | null;
  tombstoned: boolean;
  created_at: Date;
  updated_at: Date;
  /** The row as a library list renders it (canonical-docs.json.ts), rendered by the projector after each write. */
  list_json: string | null;
}

/** Which entity owns each external ref (the read side of the claim streams). */
export interface ExternalRefsTable {
  kind: string;
  source: string;
  external_id: string;
  entity_id: string;
  evidence: Json<Record<string, unknown>>;
  linked_at: Date;
}

/** One row: how many batches the canonical_docs projector has applied, for caches of what the docs answer. */
export interface CanonicalDocsRevisionTable {
  singleton: boolean;
  revision: number;
}
