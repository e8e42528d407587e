import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { TaskStartedResponse } from '../../shared/tasks.ts';
import { startSync } from './sync-start.ts';

export const streamerSyncRoutes = [
  defineRoute({
    method: 'post',
    path: '/streamer/me/sync',
    tag: 'streamer',
    summary: 'Mirror the caller’s streamer account as task `streamer.sync` (or answer the running one)',
    description:
      'Phases: saved tracks, saved albums, followed artists, playlists and their items, recently played. Every item is reconciled into the canonical layer. A cancelled or failed sync is continued from the page where it stopped (`resumed_from_phase`).',
    access: 'user',
    response: TaskStartedResponse.extend({ resumed_from_phase: z.string().nullable() }),
    errors: { 412: 'Streamer account not linked, or it needs linking again', 503: 'The streamer is not configured' },
    handler: ({ ctx, user }) => startSync(ctx, user.username),
  }),
];
