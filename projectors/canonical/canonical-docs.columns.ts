import { type RawBuilder, sql } from 'kysely';
import type { ComposedDoc } from '../../shared/canonical/compose-doc.ts';
import type { RefFacts } from '../../shared/canonical/doc-facts.ts';
import { SOURCES } from '../../shared/events/canonical.events.ts';

export const noSources = () => Object.fromEntries(SOURCES.map((s) => [s, false]));

/** A doc that points at the end of its artist's or album's merge chain, as the read model collapses chains. */
export const chainEnd = (id: RawBuilder<string | null>) => sql<string | null>`coalesce((select d.merged_into from canonical_docs d where d.id = ${id}), ${id})`;

/** SQL null for a field no source reported, so that "never enriched" stays distinct from "none". */
const jsonOrNull = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/** The columns a composed doc writes (everything but identity, tombstone and timestamps). */
export function docColumns(doc: ComposedDoc, facts: RefFacts) {
  const pointAt = (id: string | undefined) => (id ? chainEnd(sql.val(id)) : null);
  return { ...docValues(doc, facts), artist_id: pointAt(doc.artist_id), album_id: pointAt(doc.album_id) };
}

/** docColumns as plain values: the artist and album ids as reported, before their chains are followed (chainEnd). */
export function docValues(doc: ComposedDoc, facts: RefFacts) {
  return {
    name: doc.name ?? null,
    name_folded: doc.name_folded,
    artist_id: doc.artist_id ?? null,
    artist_name: doc.artist_name ?? null,
    album_id: doc.album_id ?? null,
    album_title: doc.album_title ?? null,
    disc: doc.disc ?? null,
    track_number: doc.track_number ?? null,
    isrc: doc.isrc ?? null,
    upc: doc.upc ?? null,
    mbid: doc.mbid ?? null,
    year: doc.year ?? null,
    cover_url: doc.cover_url ?? null,
    genres: JSON.stringify(doc.genres),
    tags: JSON.stringify(doc.tags),
    duration_ms: doc.duration_ms ?? null,
    preview_url: doc.preview_url ?? null,
    catalog_id: doc.catalog_id ?? null,
    primary_type: doc.primary_type ?? null,
    secondary_types: JSON.stringify(doc.secondary_types),
    audio_quality: JSON.stringify(doc.audio_quality ?? null),
    sources: JSON.stringify(doc.sources),
    source_count: doc.source_count,
    alt_names: JSON.stringify(doc.alt_names),
    external_links: jsonOrNull(doc.external_links),
    members: jsonOrNull(doc.members),
    member_of: jsonOrNull(doc.member_of),
    affiliations: jsonOrNull(doc.affiliations),
    credits: jsonOrNull(doc.credits),
    moods: JSON.stringify(doc.moods),
    labels: JSON.stringify(doc.labels ?? []),
    feature_data: jsonOrNull(doc.feature_data),
    styles: JSON.stringify(doc.styles),
    discography: jsonOrNull(doc.discography),
    facts: JSON.stringify(facts),
  };
}

/** The integer columns of docColumns; the others are text, or JSON_DOC_COLUMNS. */
export const INT_DOC_COLUMNS: ReadonlySet<string> = new Set(['disc', 'track_number', 'year', 'duration_ms', 'source_count']);

/** The columns docColumns writes as JSON text (jsonb in the table): a reader of docColumns parses these back. */
export const JSON_DOC_COLUMNS: ReadonlySet<string> = new Set([
  'genres', 'tags', 'secondary_types', 'audio_quality', 'sources', 'alt_names', 'external_links', 'members', 'member_of', 'affiliations', 'credits',
  'moods', 'labels', 'styles', 'discography', 'feature_data', 'facts',
]);

export const DOC_COLUMNS = Object.keys(docValues(composeEmpty(), {})) as (keyof ReturnType<typeof docValues>)[];

function composeEmpty(): ComposedDoc {
  return { name_folded: null, genres: [], tags: [], moods: [], styles: [], secondary_types: [], alt_names: [], sources: noSources() as ComposedDoc['sources'], source_count: 0 };
}
