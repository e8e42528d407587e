import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type Projector, type StoredEvent, oneByOne } from '../../infra/projections/projector.ts';
import type { MediaserverLinkEvent } from '../../shared/events/mediaserver.events.ts';
import type { MediaserverPlaylistEvent } from '../../shared/events/mediaserver-playlists.events.ts';
import type { ScrobbleEvent } from '../../shared/events/scrobbles.events.ts';
import type { UserEvent } from '../../shared/events/users.events.ts';
import { assertNever } from '../../shared/never.ts';
import { usernameKey } from '../../shared/usernames.ts';

type Handled =
  | Extract<MediaserverLinkEvent, { type: 'MediaserverLinked' | 'MediaserverUnlinked' }>
  | Extract<MediaserverPlaylistEvent, { type: 'MediaserverPlaylistsListed' }>
  | Extract<UserEvent, { type: 'ScrobblerLinked' | 'ScrobblerUnlinked' | 'UserDeleted' }>
  | Extract<ScrobbleEvent, { type: 'ScrobblesImported' }>;

/**
 * Which users are linked to which upstream, since when, and when each link last brought data in:
 * the media server's by a playlist sync with the user's token (it lists every playlist, none
 * included), the scrobbler's by an import page or a mirror refresh. The admin's stale-users view
 * reads it. Upserts and overwrites only: applying an event twice changes nothing.
 */
export const upstreamConnectionsProjector: Projector = {
  name: 'upstream_connections',
  version: 1,
  handles: ['MediaserverLinked', 'MediaserverUnlinked', 'MediaserverPlaylistsListed', 'ScrobblerLinked', 'ScrobblerUnlinked', 'ScrobblesImported', 'UserDeleted'],
  tables: ['upstream_connections'],
  apply: oneByOne<Handled>(applyOne),
};

async function applyOne(trx: Transaction<Database>, event: StoredEvent & Handled): Promise<void> {
  const { username, at } = event.data;
  switch (event.type) {
    case 'MediaserverLinked':
      return linked(trx, username, 'mediaserver', at);
    case 'ScrobblerLinked':
      return linked(trx, username, 'scrobbler', at);
    case 'MediaserverUnlinked':
      return unlinked(trx, username, 'mediaserver');
    case 'ScrobblerUnlinked':
      return unlinked(trx, username, 'scrobbler');
    case 'UserDeleted':
      await trx.deleteFrom('upstream_connections').where('username_key', '=', usernameKey(username)).execute();
      return;
    case 'MediaserverPlaylistsListed':
      return synced(trx, username, 'mediaserver', at);
    case 'ScrobblesImported':
      return synced(trx, username, 'scrobbler', at);
    default:
      assertNever(event);
  }
}

async function linked(trx: Transaction<Database>, username: string, upstream: string, at: string): Promise<void> {
  const row = { username_key: usernameKey(username), upstream, username, linked_at: new Date(at), last_sync_at: null };
  await trx
    .insertInto('upstream_connections')
    .values(row)
    .onConflict((oc) => oc.columns(['username_key', 'upstream']).doUpdateSet({ username, linked_at: row.linked_at, last_sync_at: null }))
    .execute();
}

async function unlinked(trx: Transaction<Database>, username: string, upstream: string): Promise<void> {
  await trx.deleteFrom('upstream_connections').where('username_key', '=', usernameKey(username)).where('upstream', '=', upstream).execute();
}

async function synced(trx: Transaction<Database>, username: string, upstream: string, at: string): Promise<void> {
  const when = new Date(at);
  await trx
    .updateTable('upstream_connections')
    .set({ last_sync_at: when })
    .where('username_key', '=', usernameKey(username))
    .where('upstream', '=', upstream)
    .where((eb) => eb.or([eb('last_sync_at', 'is', null), eb('last_sync_at', '<', when)]))
    .execute();
}
