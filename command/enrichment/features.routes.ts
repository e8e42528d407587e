import { z } from 'zod';
import type { Route } from '../../infra/http/define-route.ts';
import { queryInt } from '../../infra/http/params.ts';
import { drainRoute } from './drain-route.ts';
import { FEATURES_BACKFILL_TASK, FEATURES_BATCH_CAP } from './features-backfill.task.ts';

export const featuresBackfillRoutes: Route[] = [
  drainRoute({
    path: '/admin/features/backfill',
    task: FEATURES_BACKFILL_TASK,
    summary: 'Look up the audio features of tracks with a metabase recording ref never looked up: one batch, as a task',
    description: `Works \`limit\` tracks (at most ${FEATURES_BATCH_CAP}) in bulk requests to the features database (FEATURES_API_URL) and records \`feature_data\` (bpm, key, mood and genre probabilities) on each, or that it has none. Manual only (no schedule): run again for the next batch. Failures are error rows of source \`features\` (GET /admin/canonical/enrich/errors).`,
    query: z.object({ limit: queryInt(250, { min: 1, max: FEATURES_BATCH_CAP }) }),
  }),
];
