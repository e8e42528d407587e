import { z } from 'zod';

/**
 * A user's listening history, stream `scrobbles-<username key>`. Events carry the normalized facts
 * of each scrobble (never the raw upstream page), already stamped with the canonical ids the
 * reconciler gave them, so that dashboards are pure projections of this stream.
 */
export const Scrobble = z.object({
  /** `hashedId(username key, uts, artist, track)`: re-importing the same scrobble yields the same id. */
  scrobble_id: z.string(),
  /** Seconds since the epoch, as the scrobbler reports it (`date.uts`). */
  uts: z.number().int(),
  artist: z.string(),
  album: z.string().nullable(),
  track: z.string(),
  artist_mbid: z.string().nullable(),
  album_mbid: z.string().nullable(),
  track_mbid: z.string().nullable(),
  canonical_artist_id: z.string().nullable(),
  canonical_album_id: z.string().nullable(),
  canonical_track_id: z.string().nullable(),
});
export type Scrobble = z.infer<typeof Scrobble>;

/**
 * One fetched page. `scrobbles` holds only scrobbles not already in the stream (the decider drops
 * the known ones), so replaying the log never double-counts. `task_id` is null for a mirror refresh.
 */
export const ScrobblesImported = z.object({
  username: z.string(),
  scrobbler_username: z.string(),
  task_id: z.string().nullable(),
  page: z.number().int().nullable(),
  total_pages: z.number().int().nullable(),
  scrobbles: z.array(Scrobble),
  at: z.string(),
});
/** A user stamped a scrobble with canonical ids by hand. */
export const ScrobbleCanonicalLinked = z.object({
  username: z.string(),
  scrobble_id: z.string(),
  canonical_artist_id: z.string().nullable(),
  canonical_album_id: z.string().nullable(),
  canonical_track_id: z.string().nullable(),
  linked_by: z.string(),
  at: z.string(),
});
/** An admin removed a scrobble (one by id, or a whole invalid bucket by purge). */
export const ScrobblesDeleted = z.object({
  username: z.string(),
  scrobble_ids: z.array(z.string()),
  reason: z.enum(['admin_delete', 'invalid_purge']),
  deleted_by: z.string(),
  at: z.string(),
});

export const scrobbleEventSchemas = { ScrobblesImported, ScrobbleCanonicalLinked, ScrobblesDeleted } as const;

export type ScrobbleEvent =
  | { type: 'ScrobblesImported'; data: z.infer<typeof ScrobblesImported> }
  | { type: 'ScrobbleCanonicalLinked'; data: z.infer<typeof ScrobbleCanonicalLinked> }
  | { type: 'ScrobblesDeleted'; data: z.infer<typeof ScrobblesDeleted> };
