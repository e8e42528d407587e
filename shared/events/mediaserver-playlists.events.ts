import { z } from 'zod';

/**
 * A user's playlists on the media server as last fetched with their own token, stream
 * `mediaserverplaylists-<username key>`. Observations, not decisions: each listing replaces the
 * previous one. `playlist_id` is `<server_id>::<rating_key>`. No token here.
 */
export const PlaylistFacts = z.object({
  playlist_id: z.string(),
  rating_key: z.string(),
  title: z.string(),
  playlist_type: z.string(),
  smart: z.boolean(),
  /** The server path of the cover mosaic, when the playlist has one. */
  composite: z.string().nullable(),
  leaf_count: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  added_at: z.number().int().nullable(),
  updated_at: z.number().int().nullable(),
});
export type PlaylistFacts = z.infer<typeof PlaylistFacts>;

export const PlaylistItemFacts = z.object({
  rating_key: z.string(),
  playlist_item_id: z.string().nullable(),
  kind: z.string(),
  title: z.string(),
  parent_title: z.string().nullable(),
  grandparent_title: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
});
export type PlaylistItemFacts = z.infer<typeof PlaylistItemFacts>;

export const MediaserverPlaylistsListed = z.object({ username: z.string(), server_id: z.string(), playlists: z.array(PlaylistFacts), at: z.string() });
/** One page of a playlist's items; the page at offset 0 replaces what was there. */
export const MediaserverPlaylistItemsListed = z.object({
  username: z.string(),
  playlist: PlaylistFacts,
  offset: z.number().int(),
  items: z.array(PlaylistItemFacts),
  at: z.string(),
});

export const mediaserverPlaylistEventSchemas = { MediaserverPlaylistsListed, MediaserverPlaylistItemsListed } as const;

export type MediaserverPlaylistEvent =
  | { type: 'MediaserverPlaylistsListed'; data: z.infer<typeof MediaserverPlaylistsListed> }
  | { type: 'MediaserverPlaylistItemsListed'; data: z.infer<typeof MediaserverPlaylistItemsListed> };
