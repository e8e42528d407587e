/**
 * The drains that file enrichment error rows (`<source>:<kind>:<canonical_id>`). A new drain adds
 * its name here (drains are typed by this list); the event schema only checks the shape of a name,
 * so rows of a drain renamed later still read and clear (see docs/enrichment.md).
 */
export const METABASE_ERROR_SOURCES = ['hydrate_mb', 'promote_scrobbler', 'isrc_link', 'mb_relations', 'mb_credits', 'mb_barcode'] as const;
export const LIBRARY_ERROR_SOURCES = ['audio_quality', 'tags', 'artist_reproject'] as const;
export const PROVIDER_ERROR_SOURCES = ['lyrics', 'album_tracks', 'releasedb_discover', 'releasedb_reproject', 'features'] as const;
export const ERROR_SOURCES = [...METABASE_ERROR_SOURCES, 'catalog_discover', 'store_discover', ...LIBRARY_ERROR_SOURCES, ...PROVIDER_ERROR_SOURCES] as const;
export type KnownErrorSource = (typeof ERROR_SOURCES)[number];
