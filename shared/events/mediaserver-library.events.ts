import { z } from 'zod';

/**
 * The media server's library as last seen: the server's identity and sections on
 * `mediaserverserver-<server id>`, items per section on `mediaserversection-<server id>.<section id>`.
 * These are observations of the server, not decisions: a sync appends what it saw. No token here.
 */
export const MirrorKind = z.enum(['artist', 'album', 'track', 'movie', 'show', 'season', 'episode']);
export type MirrorKind = z.infer<typeof MirrorKind>;

export const MirrorMedia = z.object({
  codec: z.string().nullable(),
  container: z.string().nullable(),
  bit_depth: z.number().int().nullable(),
  sampling_rate: z.number().int().nullable(),
  bitrate: z.number().int().nullable(),
  lossless: z.boolean(),
  size: z.number().nullable(),
  part_id: z.number().int().nullable(),
  part_key: z.string().nullable(),
});
export type MirrorMedia = z.infer<typeof MirrorMedia>;

export const MirrorItem = z.object({
  rating_key: z.string(),
  kind: MirrorKind,
  title: z.string(),
  parent_rating_key: z.string().nullable(),
  grandparent_rating_key: z.string().nullable(),
  parent_title: z.string().nullable(),
  grandparent_title: z.string().nullable(),
  index: z.number().int().nullable(),
  disc: z.number().int().nullable(),
  year: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  thumb: z.string().nullable(),
  genres: z.array(z.string()),
  added_at: z.number().int().nullable(),
  /** The server's own change stamp (seconds): quick syncs compare it. */
  updated_at: z.number().int().nullable(),
  view_count: z.number().int().nullable(),
  last_viewed_at: z.number().int().nullable(),
  user_rating: z.number().nullable(),
  media: MirrorMedia.nullable(),
  canonical_id: z.string().nullable(),
});
export type MirrorItem = z.infer<typeof MirrorItem>;

export const MirrorServer = z.object({
  machine_identifier: z.string(),
  friendly_name: z.string().nullable(),
  version: z.string().nullable(),
  platform: z.string().nullable(),
  platform_version: z.string().nullable(),
});
export const MirrorSection = z.object({
  section_id: z.string(),
  type: z.string(),
  title: z.string(),
  agent: z.string().nullable(),
  uuid: z.string().nullable(),
  updated_at: z.number().int().nullable(),
});
export type MirrorSection = z.infer<typeof MirrorSection>;

export const MediaserverLibrariesListed = z.object({ server: MirrorServer, sections: z.array(MirrorSection), at: z.string() });
export const MediaserverItemsSynced = z.object({ server_id: z.string(), section_id: z.string(), items: z.array(MirrorItem), at: z.string() });
/** Items the server no longer has: kept in the mirror, marked deleted. */
export const MediaserverItemsRemoved = z.object({ server_id: z.string(), section_id: z.string(), rating_keys: z.array(z.string()), at: z.string() });
export const MediaserverSectionSynced = z.object({
  server_id: z.string(),
  section_id: z.string(),
  quick: z.boolean(),
  counts: z.record(z.string(), z.number().int()),
  at: z.string(),
});

export const mediaserverLibraryEventSchemas = {
  MediaserverLibrariesListed,
  MediaserverItemsSynced,
  MediaserverItemsRemoved,
  MediaserverSectionSynced,
} as const;

type Infer<T extends z.ZodType> = z.infer<T>;
export type MediaserverLibraryEvent =
  | { type: 'MediaserverLibrariesListed'; data: Infer<typeof MediaserverLibrariesListed> }
  | { type: 'MediaserverItemsSynced'; data: Infer<typeof MediaserverItemsSynced> }
  | { type: 'MediaserverItemsRemoved'; data: Infer<typeof MediaserverItemsRemoved> }
  | { type: 'MediaserverSectionSynced'; data: Infer<typeof MediaserverSectionSynced> };
