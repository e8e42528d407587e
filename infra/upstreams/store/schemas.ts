import { z } from 'zod';

/** One row of a store look-up: the album (`wrapperType: collection`) or one of its songs (`track`). */
export const StoreResult = z.object({
  wrapperType: z.string(),
  kind: z.string().optional(),
  collectionType: z.string().optional(),
  artistId: z.number().int().optional(),
  collectionId: z.number().int().optional(),
  trackId: z.number().int().optional(),
  artistName: z.string().optional(),
  collectionName: z.string().optional(),
  trackName: z.string().optional(),
  artworkUrl100: z.string().optional(),
  previewUrl: z.string().optional(),
  releaseDate: z.string().optional(),
  primaryGenreName: z.string().optional(),
  trackCount: z.number().int().optional(),
  discNumber: z.number().int().optional(),
  trackNumber: z.number().int().optional(),
  trackTimeMillis: z.number().int().optional(),
});
export type StoreResult = z.infer<typeof StoreResult>;

/** `GET /lookup`: `{resultCount, results}`; an unknown code answers `resultCount: 0`. */
export const StoreLookup = z.object({ resultCount: z.number().int(), results: z.array(StoreResult) });
