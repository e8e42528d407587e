import type { Kysely } from 'kysely';
import type { ZodType } from 'zod';
import type { Database } from '../../db/database.ts';
import type { CatalogClient } from './client.ts';
import { CatalogAlbumWithTracks, CatalogArtist, CatalogArtistAlbum, CatalogPage, CatalogTrack } from './schemas.ts';

/** Catalog entities change rarely; a day keeps resolves cheap and previews reasonably fresh. */
export const CATALOG_CACHE_TTL_MS = 24 * 60 * 60 * 1000;

/** `artist-albums` and `artist-related`: the first page of an artist's albums and related artists. */
export type CachedKind = 'artist' | 'album' | 'track' | 'artist-albums' | 'artist-related';

export interface CacheOptions {
  ttlMs?: number;
  now?: () => Date;
  /** Skip a fresh entry and fetch again (the interface's `refresh` parameters). */
  refresh?: boolean;
}

/**
 * Answers from the cache while the entry is younger than the TTL and still parses; otherwise fetches,
 * stores and answers. A failed fetch stores nothing, so a fault is never cached.
 */
export async function readThrough<T>(
  db: Kysely<Database>,
  kind: CachedKind,
  catalogId: string,
  schema: ZodType<T>,
  fetch: () => Promise<T>,
  options: CacheOptions = {},
): Promise<T> {
  const { ttlMs = CATALOG_CACHE_TTL_MS, now = () => new Date() } = options;
  if (!options.refresh) {
    const row = await db.selectFrom('catalog_cache').select(['payload', 'fetched_at']).where('kind', '=', kind).where('catalog_id', '=', catalogId).executeTakeFirst();
    const fresh = row && now().getTime() - new Date(row.fetched_at).getTime() < ttlMs;
    const parsed = fresh ? schema.safeParse(row.payload) : undefined;
    if (parsed?.success) return parsed.data;
  }
  const payload = await fetch();
  const values = { payload: JSON.stringify(payload), fetched_at: now() };
  await db
    .insertInto('catalog_cache')
    .values({ kind, catalog_id: catalogId, ...values })
    .onConflict((oc) => oc.columns(['kind', 'catalog_id']).doUpdateSet(values))
    .execute();
  return payload;
}

/** An artist's albums and related artists: the first page is what an artist page shows. */
const ARTIST_PAGE = 100;

/** The catalog reads the canonical layer needs, through the cache. */
export function cachedCatalog(db: Kysely<Database>, client: CatalogClient, options: CacheOptions = {}) {
  return {
    artist: (id: string) => readThrough(db, 'artist', id, CatalogArtist, () => client.artist(id), options),
    albumWithTracks: (id: string) => readThrough(db, 'album', id, CatalogAlbumWithTracks, () => client.albumWithTracks(id), options),
    track: (id: string) => readThrough(db, 'track', id, CatalogTrack, () => client.track(id), options),
    artistAlbums: (id: string) => readThrough(db, 'artist-albums', id, CatalogPage(CatalogArtistAlbum), () => client.artistAlbums(id, { limit: ARTIST_PAGE }), options),
    relatedArtists: (id: string) => readThrough(db, 'artist-related', id, CatalogPage(CatalogArtist), () => client.relatedArtists(id, { limit: ARTIST_PAGE }), options),
  };
}
