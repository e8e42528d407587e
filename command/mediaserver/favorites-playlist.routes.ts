import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { queryBool } from '../../infra/http/params.ts';
import { favoritesPlaylist } from './favorites-playlist.ts';

export const favoritesPlaylistRoutes = [
  defineRoute({
    method: 'post',
    path: '/mediaserver/me/favorites-playlist/sync',
    tag: 'mediaserver',
    summary: "Reconcile the caller's favorite tracks into their `<username> - Favorites` playlist",
    description:
      'Adds favorite tracks that have a live file and removes everything else. The first success turns `mediaserver_favorites_sync_enabled` on; from then on single-track favorite and unfavorite calls follow automatically. `force_recreate=true` deletes the playlist and builds it again.',
    access: 'user',
    query: z.object({ force_recreate: queryBool(false) }),
    response: z.object({
      title: z.string(),
      playlist_id: z.string().nullable(),
      created: z.boolean(),
      added: z.number().int(),
      removed: z.number().int(),
      total: z.number().int(),
      sync_enabled: z.boolean(),
    }),
    errors: { 412: 'Media server account not linked', 503: 'The media server is not configured' },
    handler: ({ ctx, user, query }) => favoritesPlaylist(ctx, user.username).reconcile(query.force_recreate),
  }),
];
