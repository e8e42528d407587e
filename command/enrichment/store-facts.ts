import type { StoreResult } from '../../infra/upstreams/store/schemas.ts';
import type { Facts } from '../../shared/events/canonical.events.ts';

/** The store's artwork URLs name their size; ask for a large one. */
const large = (url: string | undefined) => url?.replace(/\/\d+x\d+bb\./, '/600x600bb.');
const yearOf = (date: string | undefined) => (date && /^\d{4}/.test(date) ? Number(date.slice(0, 4)) : undefined);

/** What the store's album row says: title, year, cover, genre. */
export function storeAlbumFacts(row: StoreResult): Facts {
  return compact({ name: row.collectionName, year: yearOf(row.releaseDate), cover_url: large(row.artworkUrl100), genres: row.primaryGenreName ? [row.primaryGenreName] : undefined });
}

/** What the store's song row says: title, length, preview, position. */
export function storeTrackFacts(row: StoreResult): Facts {
  return compact({ name: row.trackName, duration_ms: row.trackTimeMillis, preview_url: row.previewUrl, disc: row.discNumber, track_number: row.trackNumber, year: yearOf(row.releaseDate) });
}

function compact(facts: Record<string, unknown>): Facts {
  return Object.fromEntries(Object.entries(facts).filter(([, v]) => v !== undefined)) as Facts;
}
