import { z } from 'zod';

/** A record of the lyrics provider (`/api/get`, and each row of `/api/search`). Lyrics are null or "" when it has none. */
export const LyricsRecord = z.object({
  id: z.number().int(),
  trackName: z.string(),
  artistName: z.string(),
  albumName: z.string().nullable().optional(),
  duration: z.number().nullable().optional(),
  instrumental: z.boolean(),
  plainLyrics: z.string().nullable().optional(),
  syncedLyrics: z.string().nullable().optional(),
});
export type LyricsRecord = z.infer<typeof LyricsRecord>;
