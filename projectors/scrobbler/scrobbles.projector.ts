import { type Insertable, type Transaction, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { insertJsonRows } from '../../infra/db/json-rows.ts';
import type { Projector, StoredEvent } from '../../infra/projections/projector.ts';
import type { EntityEvent } from '../../shared/events/canonical.events.ts';
import type { ScrobbleEvent } from '../../shared/events/scrobbles.events.ts';
import type { UserEvent } from '../../shared/events/users.events.ts';
import { assertNever } from '../../shared/never.ts';
import { classifyScrobble } from '../../shared/scrobbles/invalid.ts';
import { usernameKey } from '../../shared/usernames.ts';

type Imported = Extract<ScrobbleEvent, { type: 'ScrobblesImported' }>['data'];
type Deleted = Extract<ScrobbleEvent, { type: 'ScrobblesDeleted' }>['data'];
type Unmerged = Extract<EntityEvent, { type: 'EntityUnmerged' }>['data'];
type Handled = ScrobbleEvent | Extract<EntityEvent, { type: 'EntityUnmerged' }> | Extract<UserEvent, { type: 'UserDeleted' }>;

/**
 * scrobbles: one row per mirrored scrobble (the recent-tracks listing, ownership checks, invalid
 * buckets); scrobble_mirror: per user and account, the counts listings show (kept here so that no
 * request counts a million rows) and when the mirror was last refreshed. Inserts skip known ids and
 * counts follow the rows actually written or removed, so applying an event twice changes nothing.
 */
export const scrobblesProjector: Projector = {
  name: 'scrobbles',
  version: 1,
  handles: ['ScrobblesImported', 'ScrobbleCanonicalLinked', 'ScrobblesDeleted', 'EntityUnmerged', 'UserDeleted'],
  tables: ['scrobbles', 'scrobble_mirror'],
  async apply(trx, events) {
    for (const event of events as (StoredEvent & Handled)[]) await applyOne(trx, event);
  },
};

async function applyOne(trx: Transaction<Database>, event: StoredEvent & Handled): Promise<void> {
  switch (event.type) {
    case 'UserDeleted': {
      // A deleted account's listening goes with it; a namesake registered later starts empty.
      const key = usernameKey(event.data.username);
      await trx.deleteFrom('scrobbles').where('username_key', '=', key).execute();
      await trx.deleteFrom('scrobble_mirror').where('username_key', '=', key).execute();
      return;
    }
    case 'ScrobblesImported':
      return imported(trx, event.data);
    case 'ScrobbleCanonicalLinked': {
      const { scrobble_id, canonical_artist_id, canonical_album_id, canonical_track_id } = event.data;
      const recorded = { recorded_artist_id: canonical_artist_id, recorded_album_id: canonical_album_id, recorded_track_id: canonical_track_id };
      await trx.updateTable('scrobbles').set({ canonical_artist_id, canonical_album_id, canonical_track_id, ...recorded }).where('scrobble_id', '=', scrobble_id).execute();
      return;
    }
    case 'ScrobblesDeleted':
      return deleted(trx, event.data);
    case 'EntityUnmerged':
      return unmerged(trx, event.data);
    default:
      assertNever(event);
  }
}

async function imported(trx: Transaction<Database>, data: Imported): Promise<void> {
  const key = usernameKey(data.username);
  const at = new Date(data.at);
  const rows = data.scrobbles.map((s) => ({
    ...s,
    recorded_artist_id: s.canonical_artist_id,
    recorded_album_id: s.canonical_album_id,
    recorded_track_id: s.canonical_track_id,
    username_key: key,
    scrobbler_username: data.scrobbler_username,
    invalid_kind: classifyScrobble(s.uts, at.getTime()),
    imported_at: at,
  }));
  const written = rows.length > 0 ? await recorded(trx, rows) : { all: 0, valid: 0, newest: null, oldest: null };
  const refreshed = data.task_id === null ? at : null;
  await trx
    .insertInto('scrobble_mirror')
    .values({
      username_key: key,
      scrobbler_username: data.scrobbler_username,
      scrobble_count: written.all,
      valid_count: written.valid,
      newest_uts: written.newest,
      oldest_uts: written.oldest,
      last_imported_at: at,
      last_refreshed_at: refreshed,
    })
    .onConflict((oc) =>
      oc.columns(['username_key', 'scrobbler_username']).doUpdateSet({
        scrobble_count: sql`scrobble_mirror.scrobble_count + ${written.all}`,
        valid_count: sql`scrobble_mirror.valid_count + ${written.valid}`,
        newest_uts: sql`greatest(scrobble_mirror.newest_uts, excluded.newest_uts)`,
        oldest_uts: sql`least(scrobble_mirror.oldest_uts, excluded.oldest_uts)`,
        last_imported_at: at,
        last_refreshed_at: sql`coalesce(excluded.last_refreshed_at, scrobble_mirror.last_refreshed_at)`,
      }),
    )
    .execute();
}

/**
 * Inserts the rows it does not hold yet and answers how many it wrote, how many of those are
 * valid, and their newest and oldest times: counted where they are written, so a page's rows do
 * not cross back to this thread.
 */
async function recorded(trx: Transaction<Database>, rows: Insertable<Database['scrobbles']>[]) {
  const [counted] = await trx
    .with('written', (db) => insertJsonRows(db, 'scrobbles', rows).onConflict((oc) => oc.column('scrobble_id').doNothing()).returning(['uts', 'invalid_kind']))
    .selectFrom('written')
    .select([
      sql<string>`count(*)`.as('all'),
      sql<string>`count(*) filter (where invalid_kind is null)`.as('valid'),
      sql<string | null>`max(uts) filter (where invalid_kind is null)`.as('newest'),
      sql<string | null>`min(uts) filter (where invalid_kind is null)`.as('oldest'),
    ])
    .execute();
  const { all, valid, newest, oldest } = counted!;
  return { all: Number(all), valid: Number(valid), newest: newest === null ? null : Number(newest), oldest: oldest === null ? null : Number(oldest) };
}

async function deleted(trx: Transaction<Database>, data: Deleted): Promise<void> {
  if (data.scrobble_ids.length === 0) return;
  const key = usernameKey(data.username);
  const removed = await trx.deleteFrom('scrobbles').where('username_key', '=', key).where('scrobble_id', 'in', data.scrobble_ids).returning(['scrobbler_username', 'invalid_kind']).execute();
  const byAccount = new Map<string, { all: number; valid: number }>();
  for (const r of removed) {
    const counts = byAccount.get(r.scrobbler_username) ?? { all: 0, valid: 0 };
    counts.all++;
    if (r.invalid_kind === null) counts.valid++;
    byAccount.set(r.scrobbler_username, counts);
  }
  for (const [account, counts] of byAccount) {
    await trx
      .updateTable('scrobble_mirror')
      .set({ scrobble_count: sql`scrobble_count - ${counts.all}`, valid_count: sql`valid_count - ${counts.valid}` })
      .where('username_key', '=', key)
      .where('scrobbler_username', '=', account)
      .execute();
  }
}

/**
 * Merges reach this table through the migrate step, which re-stamps rows in place (not through the
 * log): what it moved onto the target, of the scrobbles recorded under the source or an id merged
 * into it, goes back. Rows it has not reached yet keep an id that points at the source again.
 * On a rebuild no row carries a re-stamp, so nothing moves, and the next migrate run lands the same.
 */
async function unmerged(trx: Transaction<Database>, data: Unmerged): Promise<void> {
  const column = `canonical_${data.kind}_id` as const;
  await trx
    .updateTable('scrobbles')
    .set({ [column]: data.id })
    .where(column, '=', data.target_id)
    .where(`recorded_${data.kind}_id`, 'in', [data.id, ...data.returning])
    .execute();
}
