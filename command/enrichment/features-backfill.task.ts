import type { AppContext } from '../../infra/context.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { featuresClient } from '../../infra/upstreams/features/client.ts';
import type { RecordingFeatures } from '../../infra/upstreams/features/schemas.ts';
import { type FeaturesItem, untriedFeatures } from '../../projectors/enrichment/features.reads.ts';
import { type DrainParams, runDrain } from './drain.ts';
import { enrichmentCommands } from './enrichment-commands.ts';
import { featureDataOf } from './features-facts.ts';

export const FEATURES_BACKFILL_TASK = 'features.backfill';
/** The most one run looks up; the interface has no `drain`: a re-run does the next batch. */
export const FEATURES_BATCH_CAP = 5000;

/**
 * Looks up the audio features of live tracks with a metabase recording ref never looked up, in
 * bulk requests of the provider's batch size, and records on each track what was found (or that
 * nothing was: `feature_data: null`), read from its recording ref. Manual only: no schedule.
 */
export function featuresBackfillTask(context: () => AppContext): TaskDefinition<DrainParams> {
  return {
    name: FEATURES_BACKFILL_TASK,
    resumable: true,
    run(task) {
      const ctx = context();
      const enrich = enrichmentCommands(ctx, task.startedBy);
      const client = featuresClient(ctx.config);
      const budget = Math.min(task.params.limit, FEATURES_BATCH_CAP);
      // The drain hands over one item at a time; the look-ups go ahead in bulk over the page it
      // came from, never past this run's budget, and each answer waits here for its track.
      let page: FeaturesItem[] = [];
      const answers = new Map<string, RecordingFeatures | undefined>();
      let started = 0;
      return runDrain<FeaturesItem>({
        ctx,
        task,
        name: FEATURES_BACKFILL_TASK,
        scope: {},
        batchCap: FEATURES_BATCH_CAP,
        drainCap: FEATURES_BATCH_CAP,
        backlog: async (after, n) => (page = await untriedFeatures(ctx.db, after, n)),
        keyOf: (item) => item.id,
        errors: { source: 'features', entityOf: (item) => ({ kind: 'track', id: item.id }) },
        async work(item) {
          const left = budget - started++;
          if (!answers.has(item.mbid)) {
            const from = Math.max(0, page.indexOf(item));
            const ids = [...new Set(page.slice(from, from + left).map((i) => i.mbid))].filter((id) => !answers.has(id)).slice(0, client.batchSize);
            const found = await client.lookup(ids);
            for (const id of ids) answers.set(id, found.get(id));
          }
          const featureData = featureDataOf(answers.get(item.mbid));
          await enrich.enrich('track', item.id, 'features', { source: 'metabase', external_id: item.mbid }, { feature_data: featureData });
          return featureData === null ? 'not_found' : 'found';
        },
      });
    },
  };
}
