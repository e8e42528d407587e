import type { Facts } from '../../shared/events/canonical.events.ts';

/** Genres an artist doc takes from its albums, most common first. */
export const TOP_ARTIST_GENRES = 10;

export interface LiveAlbum {
  year: number | null;
  genres: string[];
  cover_url: string | null;
}

/**
 * What an artist's live albums and tracks add up to: counts, first and last year, the genres its
 * albums share most, and the newest album cover as a picture (used only when no source gives one).
 */
export function discographyFacts(albums: LiveAlbum[], tracks: number): Facts {
  const years = albums.map((a) => a.year).filter((y): y is number => y !== null);
  const counts = new Map<string, number>();
  for (const a of albums) for (const g of new Set(a.genres.map((x) => x.toLowerCase()))) counts.set(g, (counts.get(g) ?? 0) + 1);
  const genres = [...counts.entries()].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).slice(0, TOP_ARTIST_GENRES).map(([g]) => g);
  const newestCover = [...albums].filter((a) => a.cover_url).sort((a, b) => (b.year ?? 0) - (a.year ?? 0))[0]?.cover_url;
  const facts: Facts = {
    discography: { albums: albums.length, tracks, first_year: years.length ? Math.min(...years) : null, last_year: years.length ? Math.max(...years) : null },
    genres,
  };
  if (newestCover) facts.cover_url = newestCover;
  return facts;
}
