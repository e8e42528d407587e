import type { Facts } from '../../shared/events/canonical.events.ts';

/** How many of each the doc keeps, most named first. */
export const TOP_TAGS = 20;

/** One spelling per tag: case, accents, and `-`, `_`, `/` or runs of spaces do not make another tag. */
export function foldTag(tag: string): string {
  return tag.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/[\s_\-/]+/g, ' ').trim();
}

/** Folded tags counted by how many layers name them, then cut to the top N (ties by name). */
function ranked(lists: string[][]): string[] {
  const counts = new Map<string, number>();
  for (const list of lists) {
    for (const tag of new Set(list.map(foldTag).filter((t) => t !== ''))) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  return [...counts.entries()].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)).slice(0, TOP_TAGS).map(([tag]) => tag);
}

/**
 * The unified tags, moods and styles of an album or track from every other layer of its facts (the
 * scrobbler's and the metabase's tags, the media server's genres, the releasedb's styles, …).
 * `unified_from` counts the raw entries so that the backlog sees when a source adds some.
 */
export function unifyTags(layers: Facts[]): Required<Pick<Facts, 'tags' | 'moods' | 'styles' | 'unified_from'>> {
  const tags = layers.map((f) => [...(f.tags ?? []), ...(f.genres ?? [])]);
  const moods = layers.map((f) => f.moods ?? []);
  const styles = layers.map((f) => f.styles ?? []);
  const unified_from = [...tags, ...moods, ...styles].reduce((n, list) => n + list.length, 0);
  return { tags: ranked(tags), moods: ranked(moods), styles: ranked(styles), unified_from };
}
