/** The canonical ids a scrobble is stamped with; null where nothing reconciled. */
export interface CanonicalIds {
  canonical_artist_id: string | null;
  canonical_album_id: string | null;
  canonical_track_id: string | null;
}

export const NO_IDS: CanonicalIds = { canonical_artist_id: null, canonical_album_id: null, canonical_track_id: null };
