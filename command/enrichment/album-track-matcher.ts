import { foldName } from '../../shared/names.ts';

/** A track on either side: its position and title. */
export interface PlacedTrack {
  key: string;
  disc: number | null;
  track: number | null;
  title: string;
}

/** Share of position-matched pairs whose folded titles must agree for the album to count as aligned. */
export const ALIGNED_SHARE = 0.8;

export type AlbumMatch =
  | { outcome: 'matched'; pairs: { canonical: string; source: string; by: 'position' | 'title' }[] }
  | { outcome: 'skipped'; reason: string; pairs: { canonical: string; source: string; by: 'title' }[] };

const position = (t: PlacedTrack) => `${t.disc ?? 1}:${t.track}`;
const discs = (ts: PlacedTrack[]) => new Set(ts.map((t) => t.disc ?? 1)).size;

/** Tracks whose folded title is unique on both sides, paired by that title. */
function byUniqueTitle(canonical: PlacedTrack[], source: PlacedTrack[]) {
  const unique = (ts: PlacedTrack[]) => {
    const seen = new Map<string, PlacedTrack | null>();
    for (const t of ts) seen.set(foldName(t.title), seen.has(foldName(t.title)) ? null : t);
    return seen;
  };
  const ours = unique(canonical);
  const theirs = unique(source);
  return [...ours.entries()].flatMap(([title, c]) => {
    const s = theirs.get(title);
    return c && s ? [{ canonical: c.key, source: s.key, by: 'title' as const }] : [];
  });
}

/**
 * Pairs a canonical album's tracks with a source album's by (disc, track), when both have the same
 * number of tracks and of discs, every position is known, and the titles align (at least 80% of
 * the pairs fold to the same title). Otherwise the album is skipped, and with `titleFallback` the
 * tracks whose title is unique on both sides are still paired.
 */
export function matchAlbumTracks(canonical: PlacedTrack[], source: PlacedTrack[], titleFallback: boolean): AlbumMatch {
  const skip = (reason: string): AlbumMatch => ({ outcome: 'skipped', reason, pairs: titleFallback ? byUniqueTitle(canonical, source) : [] });
  if (canonical.length !== source.length) return skip(`${canonical.length} tracks here, ${source.length} there`);
  if (discs(canonical) !== discs(source)) return skip(`${discs(canonical)} discs here, ${discs(source)} there`);
  if ([...canonical, ...source].some((t) => t.track === null)) return skip('a track without a position');
  const theirs = new Map(source.map((t) => [position(t), t]));
  if (theirs.size !== source.length || new Set(canonical.map(position)).size !== canonical.length) return skip('two tracks at one position');
  const pairs = canonical.map((c) => ({ c, s: theirs.get(position(c)) }));
  if (pairs.some((p) => !p.s)) return skip('positions differ');
  const agreeing = pairs.filter((p) => foldName(p.c.title) === foldName(p.s!.title)).length;
  if (agreeing < ALIGNED_SHARE * pairs.length) return skip(`titles do not align (${agreeing} of ${pairs.length})`);
  return { outcome: 'matched', pairs: pairs.map((p) => ({ canonical: p.c.key, source: p.s!.key, by: 'position' as const })) };
}
