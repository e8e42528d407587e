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

type Unioned = 'genres' | 'tags' | 'secondary_types' | 'alt_names';
type Scalar = Exclude<keyof Facts, Unioned>;
/** Fields the first source that reports them gives whole (lists of links, members and credits included). */
const SCALARS: Scalar[] = [
  'name', 'artist_id', 'artist_name', 'album_id', 'album_title', 'disc', 'track_number', 'isrc', 'upc', 'mbid', 'year',
  'cover_url', 'duration_ms', 'preview_url', 'catalog_id', 'primary_type', 'audio_quality',
  'external_links', 'members', 'member_of', 'affiliations', 'credits',
];

export interface ComposedDoc extends Omit<Facts, Unioned> {
  name_folded: string | null;
  genres: string[];
  tags: string[];
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
  const union = (field: 'genres' | 'tags') => [...new Set(ordered.flatMap((f) => (f.facts[field] ?? []).map((g) => g.toLowerCase())))].sort();
  const linked = new Set(linkedSources);
  const sources = Object.fromEntries(SOURCES.map((s) => [s, linked.has(s)])) as Record<Source, boolean>;
  const name = typeof doc.name === 'string' ? doc.name : null;
  return {
    ...(doc as Omit<Facts, Unioned>),
    name_folded: name === null ? null : foldName(name),
    genres: union('genres'),
    tags: union('tags'),
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
