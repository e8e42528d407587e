import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { ReleasedbSearchRow } from './client.ts';

/** Keeps the search row of a release an album was linked to (a cache, not an event). */
export async function cacheRelease(db: Kysely<Database>, row: ReleasedbSearchRow): Promise<void> {
  const values = { release_id: String(row.id), payload: JSON.stringify(row), fetched_at: new Date() };
  await db.insertInto('releasedb_cache').values(values).onConflict((oc) => oc.column('release_id').doUpdateSet({ payload: values.payload, fetched_at: values.fetched_at })).execute();
}
