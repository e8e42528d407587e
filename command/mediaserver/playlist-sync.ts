import type { AppContext } from '../../infra/context.ts';
import { toNewEvent } from '../../infra/eventstore/command-handler.ts';
import { mediaserverClients } from '../../infra/upstreams/mediaserver/client.ts';
import { mediaserverPlaylists } from '../../infra/upstreams/mediaserver/playlists.ts';
import type { Item } from '../../infra/upstreams/mediaserver/schemas.ts';
import { NotFound } from '../../shared/errors.ts';
import type { MediaserverPlaylistEvent, PlaylistFacts, PlaylistItemFacts } from '../../shared/events/mediaserver-playlists.events.ts';
import { mediaserverPlaylistsStream } from '../../shared/streams.ts';
import { parsePlaylistId, playlistIdOf } from '../../shared/mediaserver-playlists.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { mediaserverLink } from './link.ts';

const ITEMS_PER_EVENT = 500;

export function playlistFactsOf(serverId: string, item: Item): PlaylistFacts {
  return {
    playlist_id: playlistIdOf(serverId, item.ratingKey),
    rating_key: item.ratingKey,
    title: item.title,
    playlist_type: item.playlistType ?? 'audio',
    smart: item.smart ?? false,
    composite: item.composite ?? null,
    leaf_count: item.leafCount ?? null,
    duration_ms: item.duration ?? null,
    added_at: item.addedAt ?? null,
    updated_at: item.updatedAt ?? null,
  };
}

const itemFactsOf = (item: Item): PlaylistItemFacts => ({
  rating_key: item.ratingKey,
  playlist_item_id: item.playlistItemID ?? null,
  kind: item.type,
  title: item.title,
  parent_title: item.parentTitle ?? null,
  grandparent_title: item.grandparentTitle ?? null,
  duration_ms: item.duration ?? null,
});

/**
 * Fetches a user's playlists with their own token and records what it saw. The playlists stream
 * records observations, so appends go at any revision.
 */
export function playlistSync(ctx: AppContext, username: string, metadata: { actor: string | null; correlation_id?: string }) {
  const stream = mediaserverPlaylistsStream(usernameKey(username));
  const server = () => mediaserverClients(ctx).server();
  const append = async (events: MediaserverPlaylistEvent[]) => {
    await ctx.store.append(stream, events.map((e) => toNewEvent(e, metadata)), 'any');
  };

  async function recordItems(token: string, playlist: PlaylistFacts): Promise<number> {
    const items = (await server().playlistItems(playlist.rating_key, token)).map(itemFactsOf);
    const at = new Date().toISOString();
    const events: MediaserverPlaylistEvent[] = [];
    for (let offset = 0; offset === 0 || offset < items.length; offset += ITEMS_PER_EVENT) {
      events.push({ type: 'MediaserverPlaylistItemsListed', data: { username, playlist, offset, items: items.slice(offset, offset + ITEMS_PER_EVENT), at } });
    }
    await append(events);
    return items.length;
  }

  return {
    /** Records one playlist (as just fetched) and its items, without touching the others. */
    async record(token: string, playlist: PlaylistFacts): Promise<number> {
      const items = await recordItems(token, playlist);
      return items;
    },

    /** Every playlist of the user, with its items; `checkpoint` is a task's stop point. */
    async all(checkpoint: () => void = () => {}) {
      const token = await mediaserverLink(ctx).userToken(username);
      const serverId = (await server().identity()).machineIdentifier;
      const playlists = (await server().playlists(token)).map((p) => playlistFactsOf(serverId, p));
      await append([{ type: 'MediaserverPlaylistsListed', data: { username, server_id: serverId, playlists, at: new Date().toISOString() } }]);
      let items = 0;
      for (const playlist of playlists) {
        checkpoint();
        items += await recordItems(token, playlist);
      }
      return { username, server_id: serverId, playlists: playlists.length, items };
    },

    /** One playlist the user has (as last synced): its row and items fetched again. */
    async one(playlistId: string) {
      const token = await mediaserverLink(ctx).userToken(username);
      const row = await ctx.db.selectFrom('mediaserver_playlists').select('rating_key').where('username_key', '=', usernameKey(username)).where('playlist_id', '=', playlistId).executeTakeFirst();
      const parsed = parsePlaylistId(playlistId);
      if (!row || !parsed) throw new NotFound('Playlist not found');
      const fresh = playlistFactsOf(parsed.serverId, await mediaserverPlaylists(ctx).playlist(token, row.rating_key));
      const items = await recordItems(token, fresh);
      return { playlist_id: playlistId, items };
    },
  };
}
