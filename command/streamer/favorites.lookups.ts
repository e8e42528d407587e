import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { chainEnds } from '../../projectors/canonical/merge-aliases.reads.ts';

/** The canonical track (after merges) of each saved track of the account, null when unresolved. */
export async function savedTrackTargets(db: Kysely<Database>, userKey: string, accountId: string): Promise<(string | null)[]> {
  const rows = await db
    .selectFrom('streamer_saved_tracks')
    .select('canonical_track_id')
    .where('username_key', '=', userKey)
    .where('account_id', '=', accountId)
    .orderBy('added_at', 'desc')
    .orderBy('track_id')
    .execute();
  const ends = await chainEnds(db, rows.flatMap((r) => (r.canonical_track_id ? [r.canonical_track_id] : [])));
  return rows.map((r) => (r.canonical_track_id ? (ends.get(r.canonical_track_id) ?? null) : null));
}

/** The chain ends of the user's track favorites, as the read model has them. */
export async function favoriteTrackIds(db: Kysely<Database>, userKey: string): Promise<Set<string>> {
  const rows = await db.selectFrom('favorites').select('canonical_id').where('username_key', '=', userKey).where('kind', '=', 'track').execute();
  const ends = await chainEnds(db, rows.map((r) => r.canonical_id));
  return new Set(rows.map((r) => ends.get(r.canonical_id)!));
}
