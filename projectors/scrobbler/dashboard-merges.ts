import { type Transaction, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { DAY_SECONDS, monthStartDay } from '../../shared/scrobbles/calendar.ts';
import type { EntityKind, Owner, ScrobbleRow } from './dashboard-delta.ts';

type Trx = Transaction<Database>;

/**
 * Canonical merges: the plays of a merged-away entity move to its target for every user, and a
 * redirect makes scrobbles stamped with the old id later (an importer that had not seen the merge,
 * a manual link) count under the target too.
 */
export async function applyMerge(trx: Trx, kind: EntityKind, sourceId: string, targetId: string): Promise<void> {
  if (sourceId === targetId) return;
  await trx
    .insertInto('dashboard_redirects')
    .values({ from_id: sourceId, kind, to_id: targetId })
    .onConflict((oc) => oc.column('from_id').doUpdateSet({ to_id: targetId }))
    .execute();
  await trx.updateTable('dashboard_redirects').set({ to_id: targetId }).where('to_id', '=', sourceId).execute();
  // A personal service has few users: probing each one's row by key beats indexing every entity by id.
  const owners = await trx.selectFrom('dashboard_totals').select(['user_key', 'listener']).execute();
  for (const owner of owners) await moveEntity(trx, owner, kind, sourceId, targetId);
}

async function moveEntity(trx: Trx, owner: Owner, kind: EntityKind, from: string, to: string): Promise<void> {
  const { user_key, listener } = owner;
  const source = await trx
    .deleteFrom('dashboard_entities')
    .where('user_key', '=', user_key)
    .where('listener', '=', listener)
    .where('kind', '=', kind)
    .where('entity_key', '=', from)
    .returningAll()
    .executeTakeFirst();
  if (!source) return;
  const target = await trx
    .insertInto('dashboard_entities')
    .values({ ...source, entity_key: to })
    .onConflict((oc) =>
      oc.columns(['user_key', 'listener', 'kind', 'entity_key']).doUpdateSet({
        plays: sql`dashboard_entities.plays + excluded.plays`,
        first_uts: sql`least(dashboard_entities.first_uts, excluded.first_uts)`,
        last_uts: sql`greatest(dashboard_entities.last_uts, excluded.last_uts)`,
      }),
    )
    .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
    .executeTakeFirstOrThrow();
  if (!target.inserted) {
    const column = `${kind}s` as 'artists' | 'albums' | 'tracks';
    await trx.updateTable('dashboard_totals').set({ [column]: sql`${sql.ref(column)} - 1` }).where('user_key', '=', user_key).where('listener', '=', listener).execute();
  }
  const months = await trx
    .deleteFrom('dashboard_entity_months')
    .where('user_key', '=', user_key)
    .where('listener', '=', listener)
    .where('kind', '=', kind)
    .where('entity_key', '=', from)
    .returningAll()
    .execute();
  if (months.length > 0) {
    await trx
      .insertInto('dashboard_entity_months')
      .values(months.map((m) => ({ ...m, entity_key: to })))
      .onConflict((oc) => oc.columns(['user_key', 'listener', 'kind', 'entity_key', 'month']).doUpdateSet({ plays: sql`dashboard_entity_months.plays + excluded.plays` }))
      .execute();
  }
  for (const { month } of months) await moveDays(trx, owner, kind, from, to, month);
  if (kind === 'artist') {
    await trx
      .updateTable('dashboard_entities')
      .set({ artist_key: to })
      .where('user_key', '=', user_key)
      .where('listener', '=', listener)
      .where('kind', 'in', ['album', 'track'])
      .where('artist_key', '=', from)
      .execute();
  }
}

/**
 * One month at a time: daily rows and scrobbles are keyed by day and time first, so each move is a
 * bounded range. Scrobble rows take the new key too, so later deletes and links uncount it there.
 */
async function moveDays(trx: Trx, owner: Owner, kind: EntityKind, from: string, to: string, month: number): Promise<void> {
  const days = await trx
    .deleteFrom('dashboard_entity_days')
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .where('kind', '=', kind)
    .where('day', '>=', monthStartDay(month))
    .where('day', '<', monthStartDay(month + 1))
    .where('entity_key', '=', from)
    .returningAll()
    .execute();
  if (days.length === 0) return;
  await trx
    .insertInto('dashboard_entity_days')
    .values(days.map((d) => ({ ...d, entity_key: to })))
    .onConflict((oc) => oc.columns(['user_key', 'listener', 'kind', 'day', 'entity_key']).doUpdateSet({ plays: sql`dashboard_entity_days.plays + excluded.plays` }))
    .execute();
  const first = Math.min(...days.map((d) => d.day));
  const last = Math.max(...days.map((d) => d.day));
  await trx
    .updateTable('dashboard_scrobbles')
    .set({ [`${kind}_key`]: to })
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .where('uts', '>=', first * DAY_SECONDS)
    .where('uts', '<', (last + 1) * DAY_SECONDS)
    .where(`${kind}_key`, '=', from)
    .execute();
}

/** Rows with their keys as they count now: merged-away canonical ids replaced by their targets. */
export async function resolveKeys<T extends Pick<ScrobbleRow, 'artist_key' | 'album_key' | 'track_key'>>(trx: Trx, rows: T[]): Promise<T[]> {
  const ids = new Set<string>();
  for (const r of rows) for (const k of [r.artist_key, r.album_key, r.track_key]) if (k && !k.startsWith('s:')) ids.add(k);
  if (ids.size === 0) return rows;
  // Merges are rare: most imports find no redirect at all and skip the lookup by id.
  if (!(await trx.selectFrom('dashboard_redirects').select('from_id').limit(1).executeTakeFirst())) return rows;
  const found = await trx.selectFrom('dashboard_redirects').select(['from_id', 'to_id']).where('from_id', 'in', [...ids]).execute();
  if (found.length === 0) return rows;
  const to = new Map(found.map((r) => [r.from_id, r.to_id]));
  const map = (k: string | null) => (k ? (to.get(k) ?? k) : k);
  return rows.map((r) => ({ ...r, artist_key: map(r.artist_key)!, album_key: map(r.album_key), track_key: map(r.track_key)! }));
}
