import { type Facts, SOURCES, type Source } from '../events/canonical.events.ts';
import { foldName } from '../names.ts';

/**
 * Which source wins a field when several report it: the files on the user's own server first, then
 * the curated databases, then the streaming catalogs, listening history last.
 */
export const SOURCE_PRIORITY: readonly Source[] = ['mediaserver', 'metabase', 'releasedb', 'catalog', 'streamer', 'store', 'features', 'scrobbler'];
/** Providers without refs of their own (enrichment sources such as lyrics) come after every source. */
const priorityOf = (source: string) => {
  const at = SOURCE_PRIORITY.indexOf(source as Source);
  return at < 0 ? SOURCE_PRIORITY.length : at;
};

type Unioned = 'genres' | 'tags' | 'moods' | 'styles' | 'secondary_types' | 'alt_names';
/** Bookkeeping of a drain, or facts read on their own route: not fields of the doc. */
type Internal = 'unified_from' | 'lyrics';
/** The tags drain's layer: once an entity has it, its tags, moods and styles are the doc's (folded, counted, top N). */
export const UNIFIED_TAGS_SOURCE = 'tags';
type Scalar = Exclude<keyof Facts, Unioned | Internal>;
/** Fields the first source that reports them gives whole (lists of links, members and credits included). */
const SCALARS: Scalar[] = [
  'name', 'artist_id', 'artist_name', 'album_id', 'album_title', 'disc', 'track_number', 'isrc', 'upc', 'mbid', 'year',
  'cover_url', 'duration_ms', 'preview_url', 'catalog_id', 'primary_type', 'audio_quality',
  'external_links', 'members', 'member_of', 'affiliations', 'credits', 'discography', 'labels',
  'feature_data',
];

export interface ComposedDoc extends Omit<Facts, Unioned | Internal> {
  name_folded: string | null;
  genres: string[];
  tags: string[];
  moods: string[];
  styles: string[];
  secondary_types: string[];
  alt_names: string[];
  sources: Record<Source, boolean>;
  source_count: number;
}

/** The canonical doc from the facts each ref reported (`<source>` → facts of each of its refs). */
export function composeDoc(factsByRef: { source: Source; facts: Facts }[], linkedSources: Iterable<Source>): ComposedDoc {
  const ordered = [...factsByRef].sort((a, b) => priorityOf(a.source) - priorityOf(b.source));
  const doc: Record<string, unknown> = {};
  for (const field of SCALARS) doc[field] = ordered.find((f) => f.facts[field] !== undefined)?.facts[field] ?? null;
  const union = (field: 'genres' | 'tags' | 'moods' | 'styles') => [...new Set(ordered.flatMap((f) => (f.facts[field] ?? []).map((g) => g.toLowerCase())))].sort();
  const unified = ordered.find((f) => (f.source as string) === UNIFIED_TAGS_SOURCE)?.facts;
  const tagged = (field: 'tags' | 'moods' | 'styles') => (unified?.[field] !== undefined ? unified[field] : union(field));
  const linked = new Set(linkedSources);
  const sources = Object.fromEntries(SOURCES.map((s) => [s, linked.has(s)])) as Record<Source, boolean>;
  const name = typeof doc.name === 'string' ? doc.name : null;
  return {
    ...(doc as Omit<Facts, Unioned | Internal>),
    name_folded: name === null ? null : foldName(name),
    genres: union('genres'),
    tags: tagged('tags'),
    moods: tagged('moods'),
    styles: tagged('styles'),
    secondary_types: ordered.find((f) => f.facts.secondary_types)?.facts.secondary_types ?? [],
    alt_names: altNames(ordered.flatMap((f) => f.facts.alt_names ?? []), name),
    sources,
    source_count: linked.size,
  };
}

/** Other names the entity goes by, in priority order, each once (by folded form) and never its own name. */
function altNames(names: string[], name: string | null): string[] {
  const seen = new Set(name === null ? [] : [foldName(name)]);
  return names.filter((n) => {
    const folded = foldName(n);
    if (seen.has(folded)) return false;
    seen.add(folded);
    return true;
  });
}
