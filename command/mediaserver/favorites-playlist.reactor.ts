import type { Reactor } from '../../infra/reactors/reactor.ts';
import { log } from '../../infra/logger.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { favoritesPlaylist } from './favorites-playlist.ts';

/**
 * Single-track favorites follow into the media server's favorites playlist once the user turned
 * the sync on. Why a reactor with its own checkpoint rather than a task per event: the favorite
 * routes stay free of media server concerns, a restart resumes exactly after the last handled
 * batch, and the order of add/remove per track is the log's. The reaction is idempotent: it
 * waits for the read models to include the event, then converges the playlist on the current
 * favorite state of that one track (so a replayed add of a since-removed favorite does nothing).
 */
export const favoritesPlaylistReactor: Reactor = {
  name: 'mediaserver_favorites_playlist',
  handles: ['FavoriteAdded', 'FavoriteRemoved'],
  async react(ctx, event) {
    if (event.type !== 'FavoriteAdded' && event.type !== 'FavoriteRemoved') return;
    const { username, kind, canonical_id } = event.data;
    if (kind !== 'track') return;
    if (!ctx.config.MEDIASERVER_URL || !ctx.config.MEDIASERVER_TOKEN) return;
    // The reaction acts on the read models as of its event (preferences, link, favorites).
    await ctx.readModels.catchUp(event.position);
    const user = await ctx.db.selectFrom('users').select(['preferences', 'deleted']).where('username_key', '=', usernameKey(username)).executeTakeFirst();
    if (!user || user.deleted || user.preferences.mediaserver_favorites_sync_enabled !== true) return;
    const link = await ctx.db.selectFrom('mediaserver_links').select('credential_id').where('username_key', '=', usernameKey(username)).executeTakeFirst();
    if (!link?.credential_id) return;
    const playlist = favoritesPlaylist(ctx, username);
    const result = event.type === 'FavoriteAdded' ? await playlist.addTrack(canonical_id) : await playlist.removeTrack(canonical_id);
    log.info('mediaserver: favorites playlist followed a favorite', { username, type: event.type, canonical_id, ...result });
  },
};
