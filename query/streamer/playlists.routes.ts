import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { queryBool } from '../../infra/http/params.ts';
import { assertStreamerConfigured } from '../../infra/upstreams/streamer/client.ts';
import { Coverage, PlaylistDetail, PlaylistRow, listPlaylists, mediaserverCoverage, playlistDetail } from './playlists.queries.ts';

const NOT_CONFIGURED = 'The streamer is not configured';
const Params = z.object({ playlist_id: z.string().min(1).max(200).meta({ description: 'The streamer’s playlist id; `__liked_songs__` stands for the saved tracks' }) });

export const streamerPlaylistRoutes = [
  defineRoute({
    method: 'get',
    path: '/streamer/me/playlists',
    tag: 'streamer',
    summary: 'The linked account’s playlists from the local mirror (no upstream call)',
    access: 'user',
    query: z.object({ owned_only: queryBool(true).meta({ description: 'Only playlists the account owns, not those it follows' }) }),
    response: z.array(PlaylistRow),
    errors: { 503: NOT_CONFIGURED },
    handler: ({ ctx, user, query }) => {
      assertStreamerConfigured(ctx.config);
      return listPlaylists(ctx.db, user.username, query.owned_only);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/streamer/me/playlists/{playlist_id}',
    tag: 'streamer',
    summary: 'One mirrored playlist with its items; items carry `canonical_track_id` when resolved at sync time',
    access: 'user',
    params: Params,
    response: PlaylistDetail,
    errors: { 404: 'Not a playlist of the linked account’s mirror', 503: NOT_CONFIGURED },
    handler: ({ ctx, user, params }) => {
      assertStreamerConfigured(ctx.config);
      return playlistDetail(ctx.db, user.username, params.playlist_id);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/streamer/me/playlists/{playlist_id}/mediaserver-coverage',
    tag: 'streamer',
    summary: 'How many of the playlist’s tracks resolve to a canonical track the media server holds (local refs only)',
    description: '`__liked_songs__` stands for the saved tracks.',
    access: 'user',
    params: Params,
    response: Coverage,
    errors: { 404: 'Not a playlist of the linked account’s mirror', 503: NOT_CONFIGURED },
    handler: ({ ctx, user, params }) => {
      assertStreamerConfigured(ctx.config);
      return mediaserverCoverage(ctx.db, user.username, params.playlist_id);
    },
  }),
];
