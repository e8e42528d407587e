import { z } from 'zod';

/**
 * The library browser's vocabulary, shared by the list endpoints and by anything that builds a
 * library query for them (the assistant validates its proposals against the same enums).
 */
export const LIBRARY_KINDS = ['artists', 'albums', 'tracks'] as const;
export const LibraryKind = z.enum(LIBRARY_KINDS);
export type LibraryKind = z.infer<typeof LibraryKind>;

/** `recent`: newest first; `name`: by folded name; `source_count`: best-linked first. */
export const LIBRARY_SORTS = ['recent', 'name', 'source_count'] as const;
export const LibrarySort = z.enum(LIBRARY_SORTS);
export type LibrarySort = z.infer<typeof LibrarySort>;

/**
 * - `all`: every live entity (the default);
 * - `playable`: held by the mediaserver, so it can be played;
 * - `not_playable`: known only from other sources (history, catalogs): what the user does not own;
 * - `multi_source`: confirmed by two sources or more;
 * - `single_source`: seen by one source only, the first place to look for a missed link.
 */
export const LIBRARY_FILTERS = ['all', 'playable', 'not_playable', 'multi_source', 'single_source'] as const;
export const LibraryFilter = z.enum(LIBRARY_FILTERS);
export type LibraryFilter = z.infer<typeof LibraryFilter>;

/** `genre`: an album genre (matched case-insensitively). */
export const LibraryGenre = z.string().max(200);
/** `q`: a substring of the folded name. */
export const LibrarySearch = z.string().max(200);
