import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { mediaserverMedia } from '../../infra/upstreams/mediaserver/media.ts';
import { PlaylistParams, parsePlaylistId } from '../../shared/mediaserver-playlists.ts';
import { NotFound } from '../../shared/errors.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { listPlaylists, ownPlaylist, PlaylistDetail, playlistDetail, PlaylistRow } from './playlists.queries.ts';
import { markProxied, sendImage } from './stream.ts';
import { userToken } from './user-token.ts';

export const playlistQueryRoutes = [
  defineRoute({
    method: 'get',
    path: '/mediaserver/me/playlists',
    tag: 'mediaserver',
    summary: "The caller's media server playlists as last synced, without items",
    access: 'user',
    query: z.object({ playlist_type: z.enum(['audio', 'video', 'photo']).optional() }),
    response: z.array(PlaylistRow),
    handler: ({ ctx, user, query }) => listPlaylists(ctx.db, usernameKey(user.username), query.playlist_type),
  }),
  defineRoute({
    method: 'get',
    path: '/mediaserver/me/playlists/{playlist_id}',
    tag: 'mediaserver',
    summary: "One of the caller's playlists with its items; audio items carry `canonical_track_id` when resolved",
    access: 'user',
    params: PlaylistParams,
    response: PlaylistDetail,
    errors: { 404: 'Not one of the caller’s playlists' },
    handler: async ({ ctx, user, params }) => {
      const parsed = parsePlaylistId(params.playlist_id);
      if (!parsed) throw new NotFound('Playlist not found');
      return playlistDetail(ctx.db, usernameKey(user.username), params.playlist_id, parsed.serverId);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/mediaserver/me/playlists/{playlist_id}/cover',
    tag: 'mediaserver',
    summary: "The playlist's cover image, proxied with the owner's own token",
    description: 'The playlist is the caller’s on their media server account, so its cover is fetched with their token, as their playlists are.',
    access: 'user',
    params: PlaylistParams,
    response: z.unknown().meta({ description: 'Image bytes' }),
    raw: true,
    errors: {
      401: 'The media server rejected the caller’s stored token',
      404: 'Not one of the caller’s playlists, or it has no `composite_url`',
      412: 'Media server account not linked',
      502: 'The server failed, or answered something other than an image',
      503: 'The media server is not configured',
    },
    handler: async ({ ctx, user, params, res }) => {
      markProxied(res);
      const row = await ownPlaylist(ctx.db, usernameKey(user.username), params.playlist_id);
      if (!row.composite) throw new NotFound('The playlist has no cover');
      const media = mediaserverMedia(ctx);
      sendImage(res, await media.image(row.composite, await userToken(ctx, user.username)), 3600);
    },
  }),
];
