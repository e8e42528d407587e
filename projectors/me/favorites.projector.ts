import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type Projector, type StoredEvent, oneByOne } from '../../infra/projections/projector.ts';
import type { EntityEvent } from '../../shared/events/canonical.events.ts';
import type { UserEvent } from '../../shared/events/users.events.ts';
import type { FavoriteEvent } from '../../shared/events/me.events.ts';
import { usernameKey } from '../../shared/usernames.ts';

type Handled = FavoriteEvent | Extract<EntityEvent, { type: 'EntityMergedInto' | 'EntityUnmerged' }> | Extract<UserEvent, { type: 'UserDeleted' }>;

/** favorites: one row per favorite stream, its `canonical_id` moved along merges. */
export const favoritesProjector: Projector = {
  name: 'favorites',
  version: 1,
  handles: ['FavoriteAdded', 'FavoriteRemoved', 'EntityMergedInto', 'EntityUnmerged', 'UserDeleted'],
  tables: ['favorites'],
  apply: oneByOne<Handled>(applyOne),
};

async function applyOne(trx: Transaction<Database>, event: StoredEvent & Handled): Promise<void> {
  if (event.type === 'UserDeleted') {
    // A deleted account's personal data goes with it; a namesake registered later starts empty.
    await trx.deleteFrom('favorites').where('username_key', '=', usernameKey(event.data.username)).execute();
    return;
  }
  if (event.type === 'EntityMergedInto') {
    const { kind, id, target_id } = event.data;
    await trx.updateTable('favorites').set({ canonical_id: target_id }).where('kind', '=', kind).where('canonical_id', '=', id).execute();
    return;
  }
  if (event.type === 'EntityUnmerged') {
    // Favorites recorded under the source, or under an id merged into it before, follow it back.
    const { kind, id, returning } = event.data;
    await trx.updateTable('favorites').set({ canonical_id: id }).where('kind', '=', kind).where('recorded_id', 'in', [id, ...returning]).execute();
    return;
  }
  const { username, kind, canonical_id, at } = event.data;
  const key = { username_key: usernameKey(username), kind, recorded_id: canonical_id };
  if (event.type === 'FavoriteAdded') {
    await trx
      .insertInto('favorites')
      .values({ ...key, canonical_id, added_at: new Date(at) })
      .onConflict((oc) => oc.columns(['username_key', 'kind', 'recorded_id']).doNothing())
      .execute();
  } else {
    await trx.deleteFrom('favorites').where('username_key', '=', key.username_key).where('kind', '=', kind).where('recorded_id', '=', canonical_id).execute();
  }
}
