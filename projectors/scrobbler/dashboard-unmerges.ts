import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { Delta, type EntityKind, type Owner, type ScrobbleRow, names } from './dashboard-delta.ts';
import { flushDelta } from './dashboard-flush.ts';

type Trx = Transaction<Database>;

/**
 * An undone merge: the plays recorded under the source (or an id merged into it before) leave the
 * target and count under the source again, scrobble by scrobble, so days, months, bounds and totals
 * come out as if the merge had never happened. Plays the target had of its own, or that were linked
 * to it since, stay.
 */
export async function applyUnmerge(trx: Trx, kind: EntityKind, sourceId: string, targetId: string, returning: string[]): Promise<void> {
  const recorded = [sourceId, ...returning];
  await trx.deleteFrom('dashboard_redirects').where('from_id', '=', sourceId).execute();
  if (returning.length > 0) await trx.updateTable('dashboard_redirects').set({ to_id: sourceId }).where('from_id', 'in', returning).execute();
  const key = `${kind}_key` as const;
  // Unmerges are rare and a personal service's history is small: one scan beats an index per recorded id.
  const rows = await trx.selectFrom('dashboard_scrobbles').selectAll().where(key, '=', targetId).where(`recorded_${kind}_id`, 'in', recorded).execute();
  if (rows.length === 0) return;
  const delta = new Delta();
  for (const row of rows) {
    delta.entity(row, kind, targetId, -1);
    delta.entity({ ...row, [key]: sourceId }, kind, sourceId, 1);
  }
  await trx.updateTable('dashboard_scrobbles').set({ [key]: sourceId }).where(key, '=', targetId).where(`recorded_${kind}_id`, 'in', recorded).execute();
  await flushDelta(trx, delta);
  const owners = new Map(rows.map((r) => [`${r.user_key}\u0000${r.listener}`, { user_key: r.user_key, listener: r.listener }]));
  for (const owner of owners.values()) {
    await nameFromLatestPlay(trx, owner, kind, targetId);
    // The merge moved albums and tracks of the source artist to the target: each follows its latest play back.
    if (kind === 'artist') {
      const credited = await trx
        .selectFrom('dashboard_entities')
        .select(['kind', 'entity_key'])
        .where('user_key', '=', owner.user_key)
        .where('listener', '=', owner.listener)
        .where('kind', 'in', ['album', 'track'])
        .where('artist_key', '=', targetId)
        .execute();
      for (const e of credited) await nameFromLatestPlay(trx, owner, e.kind as EntityKind, e.entity_key);
    }
  }
}

/** The name, artist and artist key an entity shows are its latest play's, as an import would have left them. */
async function nameFromLatestPlay(trx: Trx, owner: Owner, kind: EntityKind, entityKey: string): Promise<void> {
  const entity = await trx
    .selectFrom('dashboard_entities')
    .select('last_uts')
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .where('kind', '=', kind)
    .where('entity_key', '=', entityKey)
    .executeTakeFirst();
  if (!entity) return;
  const play: ScrobbleRow | undefined = await trx
    .selectFrom('dashboard_scrobbles')
    .selectAll()
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .where('uts', '=', entity.last_uts)
    .where(`${kind}_key`, '=', entityKey)
    .executeTakeFirst();
  if (!play) return;
  await trx
    .updateTable('dashboard_entities')
    .set(names(play, kind))
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .where('kind', '=', kind)
    .where('entity_key', '=', entityKey)
    .execute();
}
