import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { mediaserverClients } from '../../infra/upstreams/mediaserver/client.ts';
import { mediaserverPlaylists } from '../../infra/upstreams/mediaserver/playlists.ts';
import { chainEnds } from '../../projectors/canonical/merge-aliases.reads.ts';
import { liveItemsByEntity } from '../../projectors/mediaserver/playback.reads.ts';
import { Unprocessable } from '../../shared/errors.ts';
import { playlistIdOf } from '../../shared/mediaserver-playlists.ts';
import type { SessionUser } from '../../shared/users.ts';
import { mediaserverLink } from '../mediaserver/link.ts';
import { playlistFactsOf, playlistSync } from '../mediaserver/playlist-sync.ts';

/** A proposal the user accepted: a title and the canonical tracks, in order. */
export const CreatePlaylistBody = z.object({
  title: z.string().trim().min(1, 'a playlist needs a title').max(200),
  canonical_track_ids: z.array(z.string().min(1).max(64)).min(1).max(500),
});
export type CreatePlaylistBody = z.infer<typeof CreatePlaylistBody>;

export const CreatedPlaylist = z.object({
  playlist_id: z.string(),
  title: z.string(),
  added: z.number().int(),
  skipped: z.number().int(),
  skipped_ids: z.array(z.string()),
});
export type CreatedPlaylist = z.infer<typeof CreatedPlaylist>;

/**
 * Creates the playlist on the media server with the user's own token (a user's playlists are theirs
 * on the server). Each track plays from its freshest live file on that server; a track without one
 * is skipped and counted. The new playlist is recorded at once, so the user's playlists show it.
 */
export async function createPlaylist(ctx: AppContext, user: SessionUser, body: CreatePlaylistBody): Promise<CreatedPlaylist> {
  const token = await mediaserverLink(ctx).userToken(user.username);
  const playlists = mediaserverPlaylists(ctx);
  const serverId = (await mediaserverClients(ctx).server().identity()).machineIdentifier;
  const ids = [...new Set(body.canonical_track_ids)];
  const ends = await chainEnds(ctx.db, ids);
  const live = await liveItemsByEntity(ctx.db, 'track', [...new Set(ends.values())]);
  const keys: string[] = [];
  const skipped: string[] = [];
  for (const id of ids) {
    const key = live.get(ends.get(id)!)?.find((item) => item.server_id === serverId)?.rating_key;
    if (key && !keys.includes(key)) keys.push(key);
    else if (!key) skipped.push(id);
  }
  if (keys.length === 0) throw new Unprocessable(`None of the ${ids.length} tracks has a live file on the media server`);
  const created = await playlists.create(token, serverId, body.title, keys);
  const fresh = await playlists.playlist(token, created.ratingKey);
  await playlistSync(ctx, user.username, { actor: user.username }).record(token, playlistFactsOf(serverId, fresh));
  return { playlist_id: playlistIdOf(serverId, created.ratingKey), title: fresh.title, added: keys.length, skipped: skipped.length, skipped_ids: skipped };
}
