import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/database.ts';

const DAY = 24 * 60 * 60 * 1000;

/**
 * How long a cached answer is fresh, by what was asked. Entities change rarely (and `refresh=true`
 * replaces one at once); searches move as the database is edited; a barcode or ISRC miss is asked
 * again after a week, since releases are added every day.
 */
export const TTL = {
  entity: 30 * DAY,
  search: DAY,
  browse: 7 * DAY,
  barcode: 30 * DAY,
  isrc: 30 * DAY,
  coverArt: 7 * DAY,
  miss: 7 * DAY,
} as const;

export interface Fetched {
  found: boolean;
  payload: unknown;
}

export interface CachedAnswer extends Fetched {
  fetchedAt: Date;
  /** Answered from the cache, without a request. */
  cached: boolean;
}

/**
 * Answers from the cache while fresh (and `refresh` is not asked), otherwise fetches and stores.
 * A fault stores nothing; a miss is stored only when `fetch` says so (found: false).
 */
export async function readThrough(db: Kysely<Database>, kind: string, key: string, ttlMs: number, fetch: () => Promise<Fetched>, refresh = false): Promise<CachedAnswer> {
  if (!refresh) {
    const row = await db.selectFrom('metabase_cache').select(['found', 'payload', 'fetched_at']).where('kind', '=', kind).where('key', '=', key).executeTakeFirst();
    const ttl = row && !row.found ? Math.min(ttlMs, TTL.miss) : ttlMs;
    if (row && Date.now() - row.fetched_at.getTime() < ttl) return { found: row.found, payload: row.payload, fetchedAt: row.fetched_at, cached: true };
  }
  const fetched = await fetch();
  const values = { found: fetched.found, payload: JSON.stringify(fetched.payload), fetched_at: new Date() };
  await db
    .insertInto('metabase_cache')
    .values({ kind, key, ...values })
    .onConflict((oc) => oc.columns(['kind', 'key']).doUpdateSet(values))
    .execute();
  return { ...fetched, fetchedAt: values.fetched_at, cached: false };
}

/** A cached payload (fresh or not), without asking upstream. */
export async function cachedPayload(db: Kysely<Database>, kind: string, key: string): Promise<unknown | undefined> {
  const row = await db.selectFrom('metabase_cache').select(['found', 'payload']).where('kind', '=', kind).where('key', '=', key).executeTakeFirst();
  return row?.found ? row.payload : undefined;
}

/** Cached answers per kind (entities, searches, browses, barcodes, cover art). */
export async function cachedCounts(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db.selectFrom('metabase_cache').select(['kind', sql<number>`count(*)::int`.as('n')]).where('found', '=', true).groupBy('kind').orderBy('kind').execute();
  return Object.fromEntries(rows.map((r) => [r.kind, Number(r.n)]));
}
