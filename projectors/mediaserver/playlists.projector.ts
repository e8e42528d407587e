import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type Projector, type StoredEvent, oneByOne } from '../../infra/projections/projector.ts';
import type { MediaserverLinkEvent } from '../../shared/events/mediaserver.events.ts';
import type { MediaserverPlaylistEvent, PlaylistFacts } from '../../shared/events/mediaserver-playlists.events.ts';
import { usernameKey } from '../../shared/usernames.ts';

type Handled = MediaserverPlaylistEvent | Extract<MediaserverLinkEvent, { type: 'MediaserverUnlinked' }>;

/** mediaserver_playlists and mediaserver_playlist_items; an unlinked user's playlists go with the link. */
export const mediaserverPlaylistsProjector: Projector = {
  name: 'mediaserver_playlists',
  version: 1,
  handles: ['MediaserverPlaylistsListed', 'MediaserverPlaylistItemsListed', 'MediaserverUnlinked'],
  tables: ['mediaserver_playlists', 'mediaserver_playlist_items'],
  apply: oneByOne<Handled>(applyOne),
};

const rowOf = (p: PlaylistFacts) => ({
  rating_key: p.rating_key,
  title: p.title,
  playlist_type: p.playlist_type,
  smart: p.smart,
  composite: p.composite,
  leaf_count: p.leaf_count,
  duration_ms: p.duration_ms,
  added_at: p.added_at,
  updated_at: p.updated_at,
});

async function upsert(trx: Transaction<Database>, userKey: string, p: PlaylistFacts, at: Date, itemsSynced: boolean) {
  const row = { ...rowOf(p), synced_at: at, ...(itemsSynced ? { items_synced_at: at } : {}) };
  await trx
    .insertInto('mediaserver_playlists')
    .values({ username_key: userKey, playlist_id: p.playlist_id, items_synced_at: null, ...row })
    .onConflict((oc) => oc.columns(['username_key', 'playlist_id']).doUpdateSet(row))
    .execute();
}

async function forget(trx: Transaction<Database>, userKey: string, keep: string[] | null) {
  let playlists = trx.deleteFrom('mediaserver_playlists').where('username_key', '=', userKey);
  let items = trx.deleteFrom('mediaserver_playlist_items').where('username_key', '=', userKey);
  if (keep && keep.length > 0) {
    playlists = playlists.where('playlist_id', 'not in', keep);
    items = items.where('playlist_id', 'not in', keep);
  }
  await playlists.execute();
  await items.execute();
}

async function applyOne(trx: Transaction<Database>, event: StoredEvent & Handled): Promise<void> {
  const userKey = usernameKey(event.data.username);
  if (event.type === 'MediaserverUnlinked') return forget(trx, userKey, null);
  const at = new Date(event.data.at);
  if (event.type === 'MediaserverPlaylistsListed') {
    await forget(trx, userKey, event.data.playlists.map((p) => p.playlist_id));
    for (const p of event.data.playlists) await upsert(trx, userKey, p, at, false);
    return;
  }
  const { playlist, offset, items } = event.data;
  await upsert(trx, userKey, playlist, at, true);
  if (offset === 0) await trx.deleteFrom('mediaserver_playlist_items').where('username_key', '=', userKey).where('playlist_id', '=', playlist.playlist_id).execute();
  if (items.length === 0) return;
  await trx
    .insertInto('mediaserver_playlist_items')
    .values(items.map((item, i) => ({ username_key: userKey, playlist_id: playlist.playlist_id, position: offset + i, ...item })))
    .onConflict((oc) => oc.columns(['username_key', 'playlist_id', 'position']).doNothing())
    .execute();
}
