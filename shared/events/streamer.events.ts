import { z } from 'zod';

/**
 * The streamer: a user's OAuth link, stream `streamerlink-<username key>` (tokens live in the
 * credentials store, events name the credential id only), and the local mirror of the linked
 * account, stream `streamermirror-<username key>`. A sync appends only what changed since the
 * mirror's last state, so a re-sync of an unchanged account appends nothing.
 */
const owner = { username: z.string(), account_id: z.string(), at: z.string() };

export const StreamerLinked = z.object({ ...owner, display_name: z.string().nullable(), credential_id: z.string() });
/** The accounts service refused the stored refresh token (`invalid_grant`): the user must link again. */
export const StreamerRelinkNeeded = z.object({ ...owner, reason: z.string().max(500) });
export const StreamerUnlinked = z.object({ ...owner });

/** A track as the mirror keeps it; `canonical_track_id` is what the sync reconciled it to. */
export const MirrorTrack = z.object({
  track_id: z.string(),
  name: z.string(),
  artist_name: z.string().nullable(),
  album_name: z.string().nullable(),
  isrc: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  canonical_track_id: z.string().nullable(),
});
export type MirrorTrack = z.infer<typeof MirrorTrack>;
export const SavedTrackRow = MirrorTrack.extend({ added_at: z.string() });
export const SavedAlbumRow = z.object({
  album_id: z.string(),
  name: z.string(),
  artist_name: z.string().nullable(),
  upc: z.string().nullable(),
  added_at: z.string(),
  canonical_album_id: z.string().nullable(),
});
export const FollowedArtistRow = z.object({ artist_id: z.string(), name: z.string(), canonical_artist_id: z.string().nullable() });
export const PlaylistMeta = z.object({
  playlist_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  owner_id: z.string(),
  owner_name: z.string().nullable(),
  /** Owned by the linked account, as opposed to followed. */
  owned: z.boolean(),
  public: z.boolean().nullable(),
  collaborative: z.boolean(),
  snapshot_id: z.string(),
  image_url: z.string().nullable(),
  tracks_total: z.number().int(),
});
export type PlaylistMeta = z.infer<typeof PlaylistMeta>;
/** A playlist entry; a local file has no track id (and never a canonical one). */
export const PlaylistEntry = MirrorTrack.extend({ track_id: z.string().nullable(), added_at: z.string().nullable(), is_local: z.boolean() });
export type PlaylistEntry = z.infer<typeof PlaylistEntry>;
export const PlayRow = MirrorTrack.extend({ played_at: z.string() });

export const StreamerTracksSaved = z.object({ ...owner, tracks: z.array(SavedTrackRow) });
export const StreamerTracksUnsaved = z.object({ ...owner, track_ids: z.array(z.string()) });
export const StreamerAlbumsSaved = z.object({ ...owner, albums: z.array(SavedAlbumRow) });
export const StreamerAlbumsUnsaved = z.object({ ...owner, album_ids: z.array(z.string()) });
export const StreamerArtistsFollowed = z.object({ ...owner, artists: z.array(FollowedArtistRow) });
export const StreamerArtistsUnfollowed = z.object({ ...owner, artist_ids: z.array(z.string()) });
/** A playlist whose details or snapshot changed, with all of its items in order. */
export const StreamerPlaylistMirrored = z.object({ ...owner, playlist: PlaylistMeta, items: z.array(PlaylistEntry) });
export const StreamerPlaylistsDropped = z.object({ ...owner, playlist_ids: z.array(z.string()) });
export const StreamerPlaysRecorded = z.object({ ...owner, plays: z.array(PlayRow) });

export const streamerEventSchemas = {
  StreamerLinked,
  StreamerRelinkNeeded,
  StreamerUnlinked,
  StreamerTracksSaved,
  StreamerTracksUnsaved,
  StreamerAlbumsSaved,
  StreamerAlbumsUnsaved,
  StreamerArtistsFollowed,
  StreamerArtistsUnfollowed,
  StreamerPlaylistMirrored,
  StreamerPlaylistsDropped,
  StreamerPlaysRecorded,
} as const;

type Infer<T extends z.ZodType> = z.infer<T>;
export type StreamerLinkEvent =
  | { type: 'StreamerLinked'; data: Infer<typeof StreamerLinked> }
  | { type: 'StreamerRelinkNeeded'; data: Infer<typeof StreamerRelinkNeeded> }
  | { type: 'StreamerUnlinked'; data: Infer<typeof StreamerUnlinked> };
export type StreamerMirrorEvent =
  | { type: 'StreamerTracksSaved'; data: Infer<typeof StreamerTracksSaved> }
  | { type: 'StreamerTracksUnsaved'; data: Infer<typeof StreamerTracksUnsaved> }
  | { type: 'StreamerAlbumsSaved'; data: Infer<typeof StreamerAlbumsSaved> }
  | { type: 'StreamerAlbumsUnsaved'; data: Infer<typeof StreamerAlbumsUnsaved> }
  | { type: 'StreamerArtistsFollowed'; data: Infer<typeof StreamerArtistsFollowed> }
  | { type: 'StreamerArtistsUnfollowed'; data: Infer<typeof StreamerArtistsUnfollowed> }
  | { type: 'StreamerPlaylistMirrored'; data: Infer<typeof StreamerPlaylistMirrored> }
  | { type: 'StreamerPlaylistsDropped'; data: Infer<typeof StreamerPlaylistsDropped> }
  | { type: 'StreamerPlaysRecorded'; data: Infer<typeof StreamerPlaysRecorded> };
export type StreamerEvent = StreamerLinkEvent | StreamerMirrorEvent;
