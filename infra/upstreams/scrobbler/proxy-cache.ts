import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';

/** How long answers stay fresh, by how fast they change upstream. */
export const TTL = {
  /** Biographies, tags, similar artists, corrections: they move over weeks. */
  catalog: 6 * 60 * 60 * 1000,
  search: 60 * 60 * 1000,
  /** Global, country and tag charts are recomputed about weekly; an hour keeps them cheap. */
  charts: 60 * 60 * 1000,
  /** A user's counts, loved tracks and friends change as they listen. */
  user: 5 * 60 * 1000,
  recent: 60 * 1000,
  /** A weekly chart of a past range never changes. */
  weekly: 24 * 60 * 60 * 1000,
} as const;

/** The key ignores parameter order; names keep their case since the scrobbler echoes what was asked. */
export function cacheKey(method: string, params: Record<string, string>): string {
  const sorted = Object.keys(params)
    .sort()
    .map((name) => [name, params[name]]);
  return createHash('sha256').update(JSON.stringify([method.toLowerCase(), sorted])).digest('hex');
}

export interface CachedCall {
  method: string;
  params: Record<string, string>;
  ttlMs: number;
  scope?: string;
}

/**
 * Answers from the cache while fresh, otherwise fetches and stores. Failures are never stored, so a
 * fault or a miss is asked again next time.
 */
export async function readThrough(db: Kysely<Database>, call: CachedCall, fetch: () => Promise<unknown>, now = new Date()): Promise<unknown> {
  const key = cacheKey(call.method, call.params);
  const row = await db.selectFrom('scrobbler_cache').select(['payload', 'fetched_at']).where('cache_key', '=', key).executeTakeFirst();
  if (row && now.getTime() - new Date(row.fetched_at).getTime() < call.ttlMs) return row.payload;
  const payload = await fetch();
  const values = { method: call.method, scope: (call.scope ?? '').toLowerCase(), payload: JSON.stringify(payload), fetched_at: now };
  await db
    .insertInto('scrobbler_cache')
    .values({ cache_key: key, ...values })
    .onConflict((oc) => oc.column('cache_key').doUpdateSet(values))
    .execute();
  await pruneNow(db, now);
  return payload;
}

/** Stores between sweeps of entries too old for any TTL, so the table holds about a day of answers. */
const SWEEP_EVERY = 500;
const OLDEST_USEFUL_MS = Math.max(...Object.values(TTL));
let storesSinceSweep = 0;

async function pruneNow(db: Kysely<Database>, now: Date): Promise<void> {
  if (++storesSinceSweep < SWEEP_EVERY) return;
  storesSinceSweep = 0;
  await db.deleteFrom('scrobbler_cache').where('fetched_at', '<', new Date(now.getTime() - OLDEST_USEFUL_MS)).execute();
}

/** Drops every cached answer about one scrobbler user (after they loved, unloved or scrobbled). */
export async function forgetScope(db: Kysely<Database>, scrobblerUsername: string): Promise<void> {
  await db.deleteFrom('scrobbler_cache').where('scope', '=', scrobblerUsername.toLowerCase()).execute();
}
