/** mediaserver_playlists: each user's playlists as last listed with their token. */
export interface MediaserverPlaylistsTable {
  username_key: string;
  playlist_id: string;
  rating_key: string;
  title: string;
  playlist_type: string;
  smart: boolean;
  composite: string | null;
  leaf_count: number | null;
  duration_ms: number | null;
  added_at: number | null;
  updated_at: number | null;
  items_synced_at: Date | null;
  synced_at: Date;
}

/** mediaserver_playlist_items: a playlist's entries in order; the canonical track is resolved on read. */
export interface MediaserverPlaylistItemsTable {
  username_key: string;
  playlist_id: string;
  position: number;
  rating_key: string;
  playlist_item_id: string | null;
  kind: string;
  title: string;
  parent_title: string | null;
  grandparent_title: string | null;
  duration_ms: number | null;
}

