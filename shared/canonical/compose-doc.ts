import { type Facts, SOURCES, type Source } from '../events/canonical.events.ts';
import { foldName } from '../names.ts';

/**
 * Which source wins a field when several report it: the files on the user's own server first, then
 * the curated databases, then the streaming catalogs, listening history last.
 */
export const SOURCE_PRIORITY: readonly Source[] = ['mediaserver', 'metabase', 'releasedb', 'catalog', 'streamer', 'store', 'features', 'scrobbler'];

type Scalar = Exclude<keyof Facts, 'genres' | 'tags' | 'secondary_types'>;
const SCALARS: Scalar[] = [
  'name', 'artist_id', 'artist_name', 'album_id', 'album_title', 'disc', 'track_number', 'isrc', 'upc', 'mbid', 'year',
  'cover_url', 'duration_ms', 'preview_url', 'catalog_id', 'primary_type', 'audio_quality',
];

export interface ComposedDoc extends Omit<Facts, 'genres' | 'tags' | 'secondary_types'> {
  name_folded: string | null;
  genres: string[];
  tags: string[];
  secondary_types: string[];
  sources: Record<Source, boolean>;
  source_count: number;
}

/** The canonical doc from the facts each ref reported (`<source>` → facts of each of its refs). */
export function composeDoc(factsByRef: { source: Source; facts: Facts }[], linkedSources: Iterable<Source>): ComposedDoc {
  const ordered = [...factsByRef].sort((a, b) => SOURCE_PRIORITY.indexOf(a.source) - SOURCE_PRIORITY.indexOf(b.source));
  const doc: Record<string, unknown> = {};
  for (const field of SCALARS) doc[field] = ordered.find((f) => f.facts[field] !== undefined)?.facts[field] ?? null;
  const union = (field: 'genres' | 'tags') => [...new Set(ordered.flatMap((f) => (f.facts[field] ?? []).map((g) => g.toLowerCase())))].sort();
  const linked = new Set(linkedSources);
  const sources = Object.fromEntries(SOURCES.map((s) => [s, linked.has(s)])) as Record<Source, boolean>;
  return {
    ...(doc as Omit<Facts, 'genres' | 'tags' | 'secondary_types'>),
    name_folded: typeof doc.name === 'string' ? foldName(doc.name) : null,
    genres: union('genres'),
    tags: union('tags'),
    secondary_types: ordered.find((f) => f.facts.secondary_types)?.facts.secondary_types ?? [],
    sources,
    source_count: linked.size,
  };
}
