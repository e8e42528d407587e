import { defineRoute } from '../../infra/http/define-route.ts';
import { CreatePlaylistBody, CreatedPlaylist, createPlaylist } from './playlist-create.ts';

export const playlistCreateRoutes = [
  defineRoute({
    method: 'post',
    path: '/library/playlist/create',
    tag: 'assistant',
    summary: 'Create a playlist on the media server from an accepted proposal',
    description:
      'Uses the caller\'s own media server token. Tracks play from their freshest live file; ids without one are skipped and counted (`skipped`, `skipped_ids`). ' +
      'The playlist shows in `GET /mediaserver/me/playlists` at once.',
    access: 'user',
    body: CreatePlaylistBody,
    response: CreatedPlaylist,
    errors: {
      401: 'The stored media server token was rejected',
      412: 'Media server account not linked',
      422: 'None of the tracks has a live file on the media server',
      502: 'The media server failed',
      503: 'The media server is not configured',
    },
    handler: ({ ctx, user, body }) => createPlaylist(ctx, user, body),
  }),
];
