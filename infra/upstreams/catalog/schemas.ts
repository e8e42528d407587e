import { z } from 'zod';

/**
 * The catalog provider's payloads (the Deezer public API), as far as the service reads them.
 * Unknown fields pass through untouched in the upstream but are dropped here; fields the API leaves
 * out on some endpoints (a track inside an album listing has no `album`) are optional.
 */
const nullableString = z.string().nullish();

export const CatalogArtist = z.object({
  id: z.number().int(),
  name: z.string(),
  link: z.string().optional(),
  picture: z.string().optional(),
  picture_small: z.string().optional(),
  picture_medium: z.string().optional(),
  picture_big: z.string().optional(),
  picture_xl: z.string().optional(),
  nb_album: z.number().int().optional(),
  nb_fan: z.number().int().optional(),
  type: z.literal('artist').optional(),
});
export type CatalogArtist = z.infer<typeof CatalogArtist>;

/** The album as embedded in a track (`/track/{id}`, search hits). */
export const CatalogAlbumRef = z.object({
  id: z.number().int(),
  title: z.string(),
  cover: z.string().optional(),
  cover_small: z.string().optional(),
  cover_medium: z.string().optional(),
  cover_big: z.string().optional(),
  cover_xl: z.string().optional(),
  release_date: z.string().optional(),
  type: z.literal('album').optional(),
});
export type CatalogAlbumRef = z.infer<typeof CatalogAlbumRef>;

export const CatalogTrack = z.object({
  id: z.number().int(),
  readable: z.boolean().optional(),
  title: z.string(),
  title_short: z.string().optional(),
  title_version: z.string().optional(),
  isrc: z.string().optional(),
  link: z.string().optional(),
  duration: z.number().int().optional(),
  track_position: z.number().int().optional(),
  disk_number: z.number().int().optional(),
  release_date: z.string().optional(),
  preview: nullableString,
  bpm: z.number().optional(),
  gain: z.number().optional(),
  contributors: z.array(CatalogArtist.extend({ role: z.string().optional() })).optional(),
  artist: CatalogArtist,
  album: CatalogAlbumRef.optional(),
  type: z.literal('track').optional(),
});
export type CatalogTrack = z.infer<typeof CatalogTrack>;

const Genre = z.object({ id: z.number().int(), name: z.string() });

export const CatalogAlbum = CatalogAlbumRef.extend({
  upc: z.string().optional(),
  link: z.string().optional(),
  genre_id: z.number().int().optional(),
  genres: z.object({ data: z.array(Genre) }).optional(),
  label: z.string().optional(),
  nb_tracks: z.number().int().optional(),
  duration: z.number().int().optional(),
  record_type: z.string().optional(),
  contributors: z.array(CatalogArtist.extend({ role: z.string().optional() })).optional(),
  artist: CatalogArtist,
  tracks: z.object({ data: z.array(CatalogTrack) }).optional(),
});
export type CatalogAlbum = z.infer<typeof CatalogAlbum>;

/** A row of an artist's album list (`/artist/{id}/albums`): the album without its artist or tracks. */
export const CatalogArtistAlbum = CatalogAlbumRef.extend({
  record_type: z.string().optional(),
  genre_id: z.number().int().optional(),
  fans: z.number().int().optional(),
});
export type CatalogArtistAlbum = z.infer<typeof CatalogArtistAlbum>;

/** Every list: `{data, total, prev?, next?}`, paged by `index` and `limit`. */
export function CatalogPage<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), total: z.number().int().optional(), prev: z.string().optional(), next: z.string().optional() });
}
export type CatalogPage<T> = { data: T[]; total?: number; prev?: string; next?: string };

/** Errors come back with HTTP 200 in this envelope; `code` is absent on some generic exceptions. */
export const CatalogErrorEnvelope = z.object({
  error: z.object({ type: z.string().optional(), message: z.string().optional(), code: z.number().int().optional() }),
});
export type CatalogErrorEnvelope = z.infer<typeof CatalogErrorEnvelope>;

/** An album with every track of its tracklist (the album endpoint embeds only a first page). */
export const CatalogAlbumWithTracks = z.object({ album: CatalogAlbum, tracks: z.array(CatalogTrack) });
export type CatalogAlbumWithTracks = z.infer<typeof CatalogAlbumWithTracks>;
