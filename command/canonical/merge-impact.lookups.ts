import { type Kysely, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';

/** The user data keyed by an id: what a merge re-points onto its target, and an unmerge brings back. */
export interface UserDataCounts {
  favorites: number;
  comments: number;
  album_collection: number;
  /** Mirrored scrobbles stamped with the id (the re-key step re-stamps them; the dashboards count them under the target at once). */
  scrobbles: number;
}

const count = sql<number>`count(*)::int`.as('n');

export async function userDataOf(db: Kysely<Database>, kind: Kind, id: string): Promise<UserDataCounts> {
  const scrobbleColumn = `canonical_${kind}_id` as const;
  const [favorites, comments, collection, scrobbles] = await Promise.all([
    db.selectFrom('favorites').select(count).where('kind', '=', kind).where('canonical_id', '=', id).executeTakeFirst(),
    db.selectFrom('comments').select(count).where('kind', '=', kind).where('canonical_id', '=', id).executeTakeFirst(),
    kind === 'album' ? db.selectFrom('album_collection').select(count).where('canonical_id', '=', id).executeTakeFirst() : undefined,
    db.selectFrom('scrobbles').select(count).where(scrobbleColumn, '=', id).executeTakeFirst(),
  ]);
  return { favorites: favorites?.n ?? 0, comments: comments?.n ?? 0, album_collection: collection?.n ?? 0, scrobbles: scrobbles?.n ?? 0 };
}

/** Users who keep both entities (a favorite on each, or each in their collection): after the merge they hold the target twice. */
export async function usersHoldingBoth(db: Kysely<Database>, kind: Kind, a: string, b: string): Promise<{ favorites: number; album_collection: number }> {
  const both = async (table: 'favorites' | 'album_collection') => {
    let rows = db.selectFrom(table).select('username_key').where('canonical_id', 'in', [a, b]);
    if (table === 'favorites') rows = rows.where('kind', '=', kind);
    const found = await rows.groupBy('username_key').having(sql`count(distinct canonical_id)`, '=', 2).execute();
    return found.length;
  };
  return { favorites: await both('favorites'), album_collection: kind === 'album' ? await both('album_collection') : 0 };
}
