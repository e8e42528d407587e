/** The mirror of a user's streamer account, keyed by user and account (a relink to another account keeps the first one's rows apart). */
interface Owned {
  username_key: string;
  account_id: string;
}
interface TrackColumns {
  name: string;
  artist_name: string | null;
  album_name: string | null;
  isrc: string | null;
  duration_ms: number | null;
  canonical_track_id: string | null;
}
export interface StreamerSavedTracksTable extends Owned, TrackColumns {
  track_id: string;
  added_at: Date;
}
export interface StreamerSavedAlbumsTable extends Owned {
  album_id: string;
  name: string;
  artist_name: string | null;
  upc: string | null;
  added_at: Date;
  canonical_album_id: string | null;
}
export interface StreamerFollowedArtistsTable extends Owned {
  artist_id: string;
  name: string;
  canonical_artist_id: string | null;
}
export interface StreamerPlaylistsTable extends Owned {
  playlist_id: string;
  name: string;
  description: string | null;
  owner_id: string;
  owner_name: string | null;
  owned: boolean;
  public: boolean | null;
  collaborative: boolean;
  snapshot_id: string;
  image_url: string | null;
  tracks_total: number;
  synced_at: Date;
}
export interface StreamerPlaylistItemsTable extends Owned, TrackColumns {
  playlist_id: string;
  position: number;
  track_id: string | null;
  added_at: Date | null;
  is_local: boolean;
}
export interface StreamerPlaysTable extends Owned, TrackColumns {
  played_at: Date;
  track_id: string;
}
