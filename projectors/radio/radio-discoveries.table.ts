/** Tracks a user's radio wanted and could not play, one row per (user, artist, title). */
export interface RadioDiscoveriesTable {
  discovery_id: string;
  username_key: string;
  artist_name: string;
  artist_folded: string;
  title: string;
  title_folded: string;
  /** `not_playable` (in the library, not on the media server) or `not_in_library`, as last wanted. */
  status: string;
  /** The best scrobbler match any session saw. */
  similarity: number;
  /** How many sessions wanted it. */
  wanted_count: number;
  canonical_track_id: string | null;
  album_title: string | null;
  album_id: string | null;
  /** Where the album came from: `scrobbler` or `catalog`. */
  album_source: string | null;
  dismissed: boolean;
  first_wanted_at: Date;
  last_wanted_at: Date;
}

/** Which sessions wanted each discovery: `wanted_count` counts them, once each. */
export interface RadioDiscoveryWantsTable {
  discovery_id: string;
  session_id: string;
}
