import { z } from 'zod';
import type { Route } from '../../infra/http/define-route.ts';
import { queryBool, queryInt } from '../../infra/http/params.ts';
import { drainRoute, drainsText } from './drain-route.ts';
import { LYRICS_BATCH_CAP, LYRICS_DRAIN_CAP, LYRICS_TASK } from './lyrics.task.ts';

export const lyricsDrainRoutes: Route[] = [
  drainRoute({
    path: 'lyrics',
    task: LYRICS_TASK,
    summary: 'Look up the lyrics of tracks never tried (plain, synced, instrumental or none), as a task',
    description: `${drainsText(LYRICS_BATCH_CAP, LYRICS_DRAIN_CAP)} Asks the lyrics provider (LYRICS_API_URL) by artist, title, album and length.`,
    query: z.object({ limit: queryInt(200, { min: 1, max: LYRICS_DRAIN_CAP }), drain: queryBool(false) }),
  }),
];
