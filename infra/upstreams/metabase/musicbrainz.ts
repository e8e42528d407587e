/**
 * The metabase's web service 2 (JSON with `fmt=json`): which `inc=` each lookup asks for, the
 * entity names of its paths, and its limits. One lookup per entity serves the proxy and every drain
 * (hydrate, relations, credits), so each asks for everything those read.
 */
export const ENTITY_KINDS = ['artist', 'release-group', 'release', 'recording', 'label', 'work', 'area'] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];
export const SEARCHABLE = ['artist', 'release-group', 'release', 'recording', 'label', 'work'] as const;
export type Searchable = (typeof SEARCHABLE)[number];

export const LOOKUP_INC: Record<EntityKind, string> = {
  artist: 'aliases+tags+genres+url-rels+artist-rels',
  'release-group': 'artist-credits+releases+tags+genres',
  release: 'artist-credits+labels+recordings+release-groups+isrcs+tags+genres',
  recording: 'artist-credits+isrcs+releases+tags+genres+artist-rels+work-rels',
  label: 'aliases+tags+genres',
  work: 'aliases+artist-rels+tags+genres',
  area: 'aliases',
};

/** The service's rule: one request a second on average, per client; more answers 503. */
export const METABASE_MIN_INTERVAL_MS = 1000;
/** The largest page a search or browse serves. */
export const METABASE_MAX_LIMIT = 100;

/** MBIDs are UUIDs; the service answers 400 to anything else, so it is refused before asking. */
export const MBID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** A well-known entity (the area United Kingdom) the health check looks up as its live ping. */
export const PING_AREA = '8a754a16-0027-3a29-b6d7-2b40ea0481ed';

/** Barcodes are digits; a UPC-A and the EAN-13 with a leading zero name the same product. */
export function barcodeVariants(upc: string): string[] {
  if (upc.length === 12) return [upc, `0${upc}`];
  if (upc.length === 13 && upc.startsWith('0')) return [upc, upc.slice(1)];
  return [upc];
}

/** The Lucene query for a barcode search; digits only reach it (the route checks). */
export const barcodeQuery = (barcode: string) => `barcode:${barcode}`;
