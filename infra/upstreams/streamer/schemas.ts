import { z } from 'zod';

/**
 * The Web API's objects as far as the service reads them (recorded shapes in
 * test/fixtures/upstream/spotify/). Loose: the API adds fields freely.
 */
export const TokenAnswer = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().int().positive(),
  /** Present on the code exchange; on a refresh only when the service rotates it. */
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
});
export type TokenAnswer = z.infer<typeof TokenAnswer>;

export const TokenError = z.object({ error: z.string(), error_description: z.string().optional() });

export const Profile = z.object({ id: z.string(), display_name: z.string().nullish() });
export type Profile = z.infer<typeof Profile>;

const Image = z.object({ url: z.string() });
export const ArtistRef = z.object({ id: z.string().nullable(), name: z.string() });

export const AlbumObject = z.object({
  id: z.string().nullable(),
  name: z.string(),
  artists: z.array(ArtistRef).default([]),
  external_ids: z.object({ upc: z.string().optional() }).partial().optional(),
  release_date: z.string().nullish(),
  images: z.array(Image).default([]),
});
export type AlbumObject = z.infer<typeof AlbumObject>;

export const TrackObject = z.object({
  /** Null for a local file in a playlist. */
  id: z.string().nullable(),
  name: z.string(),
  type: z.string().default('track'),
  artists: z.array(ArtistRef).default([]),
  album: AlbumObject.optional(),
  external_ids: z.object({ isrc: z.string().optional() }).partial().optional(),
  duration_ms: z.number().int().nullish(),
  disc_number: z.number().int().nullish(),
  track_number: z.number().int().nullish(),
  preview_url: z.string().nullish(),
});
export type TrackObject = z.infer<typeof TrackObject>;

export const ArtistObject = z.object({ id: z.string(), name: z.string(), genres: z.array(z.string()).default([]), images: z.array(Image).default([]) });
export type ArtistObject = z.infer<typeof ArtistObject>;

export const SavedTrack = z.object({ added_at: z.string(), track: TrackObject });
export const SavedAlbum = z.object({ added_at: z.string(), album: AlbumObject });
export const PlaylistObject = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  owner: z.object({ id: z.string(), display_name: z.string().nullish() }),
  public: z.boolean().nullable(),
  collaborative: z.boolean(),
  snapshot_id: z.string(),
  images: z.array(Image).nullable().default([]),
  tracks: z.object({ total: z.number().int() }),
});
export type PlaylistObject = z.infer<typeof PlaylistObject>;
/** An episode or a removed track is null, or another type: only tracks are mirrored. */
export const PlaylistItem = z.object({ added_at: z.string().nullish(), is_local: z.boolean().default(false), track: TrackObject.nullable() });
export type PlaylistItem = z.infer<typeof PlaylistItem>;
export const Play = z.object({ played_at: z.string(), track: TrackObject });
export type Play = z.infer<typeof Play>;

/** Offset-paged lists: `next` is an absolute link or null. */
export const paging = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), next: z.string().nullable(), total: z.number().int().optional() });
/** Followed artists page by cursor, wrapped in `artists`. */
export const FollowedArtists = z.object({ artists: paging(ArtistObject) });

export const AudioFeatures = z.object({ audio_features: z.array(z.record(z.string(), z.unknown()).nullable()) });
