import { type Transaction, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { Projector, StoredEvent } from '../../infra/projections/projector.ts';
import type { ScrobbleEvent } from '../../shared/events/scrobbles.events.ts';
import { assertNever } from '../../shared/never.ts';
import { classifyScrobble } from '../../shared/scrobbles/invalid.ts';
import { usernameKey } from '../../shared/usernames.ts';

type Imported = Extract<ScrobbleEvent, { type: 'ScrobblesImported' }>['data'];

/**
 * scrobbles: one row per mirrored scrobble (the recent-tracks listing, ownership checks, invalid
 * buckets); scrobble_mirror: per user, how much is mirrored and when it was last refreshed.
 * Inserts skip known ids, so applying an event twice changes nothing.
 */
export const scrobblesProjector: Projector = {
  name: 'scrobbles',
  version: 1,
  handles: ['ScrobblesImported', 'ScrobbleCanonicalLinked', 'ScrobblesDeleted'],
  tables: ['scrobbles', 'scrobble_mirror'],
  async apply(trx, events) {
    for (const event of events as (StoredEvent & ScrobbleEvent)[]) await applyOne(trx, event);
  },
};

async function applyOne(trx: Transaction<Database>, event: StoredEvent & ScrobbleEvent): Promise<void> {
  switch (event.type) {
    case 'ScrobblesImported':
      return imported(trx, event.data);
    case 'ScrobbleCanonicalLinked': {
      const { scrobble_id, canonical_artist_id, canonical_album_id, canonical_track_id } = event.data;
      await trx.updateTable('scrobbles').set({ canonical_artist_id, canonical_album_id, canonical_track_id }).where('scrobble_id', '=', scrobble_id).execute();
      return;
    }
    case 'ScrobblesDeleted': {
      if (event.data.scrobble_ids.length === 0) return;
      const key = usernameKey(event.data.username);
      const removed = await trx.deleteFrom('scrobbles').where('username_key', '=', key).where('scrobble_id', 'in', event.data.scrobble_ids).returning('scrobble_id').execute();
      const gone = removed.length;
      if (gone > 0) await trx.updateTable('scrobble_mirror').set({ scrobble_count: sql`scrobble_count - ${gone}` }).where('username_key', '=', key).execute();
      return;
    }
    default:
      assertNever(event);
  }
}

async function imported(trx: Transaction<Database>, data: Imported): Promise<void> {
  const key = usernameKey(data.username);
  const at = new Date(data.at);
  let inserted = 0;
  if (data.scrobbles.length > 0) {
    const rows = data.scrobbles.map((s) => ({
      ...s,
      username_key: key,
      scrobbler_username: data.scrobbler_username,
      invalid_kind: classifyScrobble(s.uts, at.getTime()),
      imported_at: at,
    }));
    const written = await trx.insertInto('scrobbles').values(rows).onConflict((oc) => oc.column('scrobble_id').doNothing()).returning('scrobble_id').execute();
    inserted = written.length;
  }
  const utses = data.scrobbles.map((s) => s.uts);
  const newest = utses.length ? Math.max(...utses) : null;
  const oldest = utses.length ? Math.min(...utses) : null;
  const refreshed = data.task_id === null ? at : null;
  await trx
    .insertInto('scrobble_mirror')
    .values({ username_key: key, scrobbler_username: data.scrobbler_username, scrobble_count: inserted, newest_uts: newest, oldest_uts: oldest, last_imported_at: at, last_refreshed_at: refreshed })
    .onConflict((oc) =>
      oc.column('username_key').doUpdateSet({
        scrobbler_username: data.scrobbler_username,
        scrobble_count: sql`scrobble_mirror.scrobble_count + ${inserted}`,
        newest_uts: sql`greatest(scrobble_mirror.newest_uts, excluded.newest_uts)`,
        oldest_uts: sql`least(scrobble_mirror.oldest_uts, excluded.oldest_uts)`,
        last_imported_at: at,
        last_refreshed_at: sql`coalesce(excluded.last_refreshed_at, scrobble_mirror.last_refreshed_at)`,
      }),
    )
    .execute();
}
