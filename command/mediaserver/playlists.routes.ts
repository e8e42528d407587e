import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { mediaserverClients } from '../../infra/upstreams/mediaserver/client.ts';
import { TaskStartedResponse } from '../../shared/tasks.ts';
import { PlaylistParams } from '../../shared/mediaserver-playlists.ts';
import { mediaserverLink } from './link.ts';
import { playlistSync } from './playlist-sync.ts';
import { SYNC_ALL_PLAYLISTS_TASK, SYNC_PLAYLISTS_TASK } from './sync-playlists.task.ts';

export const playlistCommandRoutes = [
  defineRoute({
    method: 'post',
    path: '/mediaserver/me/playlists/sync',
    tag: 'mediaserver',
    summary: "Sync the caller's playlists and their items with their own token, as a task",
    access: 'user',
    response: TaskStartedResponse,
    errors: { 412: 'Media server account not linked', 503: 'The media server is not configured' },
    handler: async ({ ctx, user }) => {
      await mediaserverLink(ctx).userToken(user.username);
      mediaserverClients(ctx).server();
      const { task_id } = await ctx.tasks.start(SYNC_PLAYLISTS_TASK, { username: user.username }, user.username);
      return { task_id, name: SYNC_PLAYLISTS_TASK, status: 'running' as const };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/mediaserver/me/playlists/{playlist_id}/refresh',
    tag: 'mediaserver',
    summary: 'Fetch one playlist and its items again (smart and normal playlists alike)',
    access: 'user',
    params: PlaylistParams,
    response: z.object({ playlist_id: z.string(), items: z.number().int() }),
    errors: { 404: 'Not one of the caller’s playlists', 412: 'Media server account not linked' },
    handler: ({ ctx, user, params }) => playlistSync(ctx, user.username, { actor: user.username }).one(params.playlist_id),
  }),
  defineRoute({
    method: 'post',
    path: '/mediaserver/admin/playlists/sync-all',
    tag: 'mediaserver',
    summary: 'Sync the playlists of every user with a stored token, as one task; one user’s failure does not stop the others',
    access: 'admin',
    response: TaskStartedResponse,
    errors: { 503: 'The media server is not configured' },
    handler: async ({ ctx, user }) => {
      mediaserverClients(ctx).server();
      const { task_id } = await ctx.tasks.start(SYNC_ALL_PLAYLISTS_TASK, {}, user.username);
      return { task_id, name: SYNC_ALL_PLAYLISTS_TASK, status: 'running' as const };
    },
  }),
];
