import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type Projector, type StoredEvent, oneByOne } from '../../infra/projections/projector.ts';
import type { EntityEvent } from '../../shared/events/canonical.events.ts';
import type { UserEvent } from '../../shared/events/users.events.ts';
import type { CollectionEvent } from '../../shared/events/me.events.ts';
import { assertNever } from '../../shared/never.ts';
import { usernameKey } from '../../shared/usernames.ts';

type Handled = CollectionEvent | Extract<EntityEvent, { type: 'EntityMergedInto' | 'EntityUnmerged' }> | Extract<UserEvent, { type: 'UserDeleted' }>;

/** album_collection: wished-for and owned albums, one row per collection stream. */
export const albumCollectionProjector: Projector = {
  name: 'album_collection',
  version: 1,
  handles: ['AlbumAddedToWishlist', 'AlbumRemovedFromWishlist', 'AlbumAddedToOwned', 'AlbumRemovedFromOwned', 'EntityMergedInto', 'EntityUnmerged', 'UserDeleted'],
  tables: ['album_collection'],
  apply: oneByOne<Handled>(applyOne),
};

async function applyOne(trx: Transaction<Database>, event: StoredEvent & Handled): Promise<void> {
  if (event.type === 'UserDeleted') {
    await trx.deleteFrom('album_collection').where('username_key', '=', usernameKey(event.data.username)).execute();
    return;
  }
  if (event.type === 'EntityMergedInto') {
    if (event.data.kind !== 'album') return;
    await trx.updateTable('album_collection').set({ canonical_id: event.data.target_id }).where('canonical_id', '=', event.data.id).execute();
    return;
  }
  if (event.type === 'EntityUnmerged') {
    if (event.data.kind !== 'album') return;
    await trx.updateTable('album_collection').set({ canonical_id: event.data.id }).where('recorded_id', 'in', [event.data.id, ...event.data.returning]).execute();
    return;
  }
  const { username, canonical_id, at } = event.data;
  const username_key = usernameKey(username);
  const remove = () => trx.deleteFrom('album_collection').where('username_key', '=', username_key).where('recorded_id', '=', canonical_id).execute();
  switch (event.type) {
    case 'AlbumAddedToWishlist':
    case 'AlbumAddedToOwned': {
      const owned = event.type === 'AlbumAddedToOwned';
      const row = {
        status: owned ? ('owned' as const) : ('wishlisted' as const),
        wishlisted_at: owned ? (event.data.wishlisted_at ? new Date(event.data.wishlisted_at) : null) : new Date(at),
        owned_at: owned ? new Date(at) : null,
      };
      await trx
        .insertInto('album_collection')
        .values({ username_key, recorded_id: canonical_id, canonical_id, ...row })
        .onConflict((oc) => oc.columns(['username_key', 'recorded_id']).doUpdateSet(row))
        .execute();
      return;
    }
    case 'AlbumRemovedFromWishlist':
    case 'AlbumRemovedFromOwned':
      await remove();
      return;
    default:
      assertNever(event);
  }
}
