import type { ColumnType } from 'kysely';

/** bigint columns come back as strings on some drivers: read them through Number(). */
type BigIntColumn = ColumnType<string | number, number, number>;

/**
 * One mirrored scrobble. `invalid_kind` is set for impossible timestamps (see shared/scrobbles/invalid.ts).
 * `canonical_*` follow merges (the migrate step re-stamps them); `recorded_*` are the ids the
 * scrobble was stamped or linked with, which an unmerge sends it back to.
 */
export interface ScrobblesTable {
  scrobble_id: string;
  username_key: string;
  scrobbler_username: string;
  uts: BigIntColumn;
  artist: string;
  album: string | null;
  track: string;
  artist_mbid: string | null;
  album_mbid: string | null;
  track_mbid: string | null;
  canonical_artist_id: string | null;
  canonical_album_id: string | null;
  canonical_track_id: string | null;
  recorded_artist_id: string | null;
  recorded_album_id: string | null;
  recorded_track_id: string | null;
  invalid_kind: string | null;
  imported_at: Date;
}

/**
 * The mirror per user and scrobbler account: how much is there (all, and without impossible
 * timestamps: what listings count) and when it was last brought up to date.
 */
export interface ScrobbleMirrorTable {
  username_key: string;
  scrobbler_username: string;
  scrobble_count: BigIntColumn;
  valid_count: BigIntColumn;
  newest_uts: ColumnType<string | number | null, number | null, number | null>;
  oldest_uts: ColumnType<string | number | null, number | null, number | null>;
  last_imported_at: Date | null;
  last_refreshed_at: Date | null;
}
