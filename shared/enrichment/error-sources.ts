/**
 * The drains that file enrichment error rows (`<source>:<kind>:<canonical_id>`). A new drain adds
 * its name here; the event schema only checks the shape of the name (see docs/enrichment.md).
 */
export const ERROR_SOURCES = [
  'hydrate_mb',
  'promote_scrobbler',
  'catalog_discover',
  'store_discover',
  'isrc_link',
  'mb_relations',
  'mb_credits',
  'mb_barcode',
] as const;
export type KnownErrorSource = (typeof ERROR_SOURCES)[number];
