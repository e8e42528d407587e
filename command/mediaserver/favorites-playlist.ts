import type { AppContext } from '../../infra/context.ts';
import { mediaserverClients } from '../../infra/upstreams/mediaserver/client.ts';
import { mediaserverPlaylists } from '../../infra/upstreams/mediaserver/playlists.ts';
import type { Item } from '../../infra/upstreams/mediaserver/schemas.ts';
import { liveItemsByEntity } from '../../projectors/mediaserver/playback.reads.ts';
import { listFavorites } from '../../projectors/me/favorites.reads.ts';
import { chainEnds } from '../../projectors/canonical/merge-aliases.reads.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { accounts } from '../auth/accounts.ts';
import { mediaserverLink } from './link.ts';
import { playlistFactsOf, playlistSync } from './playlist-sync.ts';

export const favoritesPlaylistTitle = (username: string) => `${username} - Favorites`;

/**
 * Work on one user's favorites playlist runs one at a time in a process: the explicit sync and the
 * event reactor would otherwise both find no playlist and both create one.
 */
const queues = new Map<string, Promise<unknown>>();
function oneAtATime<T>(username: string, work: () => Promise<T>): Promise<T> {
  const key = usernameKey(username);
  const result = (queues.get(key) ?? Promise.resolve()).then(work, work);
  const tail = result.catch(() => undefined);
  queues.set(key, tail);
  void tail.then(() => queues.get(key) === tail && queues.delete(key));
  return result;
}

/** The rating key to put in the playlist for each favorite track that has a live file, favorites oldest first. */
async function wantedKeys(ctx: AppContext, username: string, only?: string[]): Promise<string[]> {
  const favorites = (await listFavorites(ctx.db, usernameKey(username), 'track')).reverse();
  const ids = favorites.map((f) => f.canonical_id).filter((id) => !only || only.includes(id));
  const live = await liveItemsByEntity(ctx.db, 'track', ids);
  return ids.flatMap((id) => live.get(id)?.[0]?.rating_key ?? []);
}

/**
 * The user's `<username> - Favorites` playlist on the server, kept with their own token: a full
 * reconcile, and single-track adds and removes that first check the favorite still stands (so
 * that replayed or late events converge on the current favorites).
 */
export function favoritesPlaylist(ctx: AppContext, username: string) {
  const title = favoritesPlaylistTitle(username);
  const playlists = () => mediaserverPlaylists(ctx);
  const server = () => mediaserverClients(ctx).server();

  async function session() {
    const token = await mediaserverLink(ctx).userToken(username);
    const serverId = (await server().identity()).machineIdentifier;
    const existing = (await server().playlists(token, 'audio')).find((p) => p.title === title);
    return { token, serverId, existing };
  }

  async function remember(token: string, serverId: string, playlist: Item): Promise<void> {
    await playlistSync(ctx, username, { actor: username }).record(token, playlistFactsOf(serverId, await playlists().playlist(token, playlist.ratingKey)));
  }

  /** Makes the playlist hold exactly `wanted` (adds missing keys, drops the rest); creates it when missing. */
  async function converge(wanted: string[], forceRecreate: boolean, keepOthers = false) {
    const { token, serverId, existing: found } = await session();
    let existing = found;
    if (existing && forceRecreate) {
      await playlists().delete(token, existing.ratingKey);
      existing = undefined;
    }
    if (!existing) {
      if (wanted.length === 0) return { playlist_id: null, created: false, added: 0, removed: 0, total: 0 };
      const created = await playlists().create(token, serverId, title, wanted);
      await remember(token, serverId, created);
      return { playlist_id: `${serverId}::${created.ratingKey}`, created: true, added: wanted.length, removed: 0, total: wanted.length };
    }
    const items = await server().playlistItems(existing.ratingKey, token);
    const have = new Set<string>();
    let removed = 0;
    for (const item of items) {
      const duplicate = have.has(item.ratingKey);
      have.add(item.ratingKey);
      if ((duplicate || (!keepOthers && !wanted.includes(item.ratingKey))) && item.playlistItemID) {
        await playlists().remove(token, existing.ratingKey, item.playlistItemID);
        removed += 1;
      }
    }
    const missing = wanted.filter((k) => !have.has(k));
    if (missing.length > 0) await playlists().add(token, serverId, existing.ratingKey, missing);
    await remember(token, serverId, existing);
    return { playlist_id: `${serverId}::${existing.ratingKey}`, created: false, added: missing.length, removed, total: items.length - removed + missing.length };
  }

  async function enableSync(): Promise<void> {
    const row = await ctx.db.selectFrom('users').select('preferences').where('username_key', '=', usernameKey(username)).executeTakeFirst();
    if (row?.preferences.mediaserver_favorites_sync_enabled === true) return;
    await accounts(ctx).changeProfile(username, { preferences: { mediaserver_favorites_sync_enabled: true } }, username);
  }

  return {
    /** Every favorite track in, everything else out; the first success turns the preference on. */
    reconcile: (forceRecreate: boolean) =>
      oneAtATime(username, async () => {
        const result = await converge(await wantedKeys(ctx, username), forceRecreate);
        await enableSync();
        return { title, ...result, sync_enabled: true };
      }),

    /** Adds one track if it is still a favorite; other entries stay as they are. */
    addTrack: (canonicalId: string) =>
      oneAtATime(username, async () => {
        const end = (await chainEnds(ctx.db, [canonicalId])).get(canonicalId)!;
        const wanted = await wantedKeys(ctx, username, [end]);
        if (wanted.length === 0) return { skipped: true };
        return converge(wanted, false, true);
      }),

    /** Removes every file of one track unless it is a favorite again. */
    removeTrack: (canonicalId: string) =>
      oneAtATime(username, async () => {
        const end = (await chainEnds(ctx.db, [canonicalId])).get(canonicalId)!;
        if ((await wantedKeys(ctx, username, [end])).length > 0) return { skipped: true };
        const { token, existing } = await session();
        if (!existing) return { skipped: true };
        const keys = new Set((await liveItemsByEntity(ctx.db, 'track', [end])).get(end)?.map((i) => i.rating_key) ?? []);
        const mirrorKeys = await ctx.db.selectFrom('mediaserver_items').select('rating_key').where('canonical_id', '=', end).execute();
        for (const row of mirrorKeys) keys.add(row.rating_key);
        let removed = 0;
        for (const item of await server().playlistItems(existing.ratingKey, token)) {
          if (keys.has(item.ratingKey) && item.playlistItemID) {
            await playlists().remove(token, existing.ratingKey, item.playlistItemID);
            removed += 1;
          }
        }
        return { removed };
      }),
  };
}
