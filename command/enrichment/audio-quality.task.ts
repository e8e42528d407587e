import type { AppContext } from '../../infra/context.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { type QualityItem, staleAudioQuality } from '../../projectors/enrichment/library-enrichment.reads.ts';
import { type DrainParams, runDrain } from './drain.ts';
import { enrichmentCommands } from './enrichment-commands.ts';
import { LIBRARY_BATCH_CAP, LIBRARY_DRAIN_CAP } from './library-drains.ts';

export const AUDIO_QUALITY_TASK = 'enrich.audio-quality';

/**
 * Codec, bit depth, sample rate and lossless flag of each track's file, from the media server's
 * mirror (no network), read from that item's ref. A track whose mirrored file changes (a re-sync
 * found a better rip) is back in the backlog.
 */
export function audioQualityTask(context: () => AppContext): TaskDefinition<DrainParams> {
  return {
    name: AUDIO_QUALITY_TASK,
    resumable: true,
    run(task) {
      const ctx = context();
      const enrich = enrichmentCommands(ctx, task.startedBy);
      return runDrain<QualityItem>({
        ctx,
        task,
        name: AUDIO_QUALITY_TASK,
        scope: {},
        batchCap: LIBRARY_BATCH_CAP,
        drainCap: LIBRARY_DRAIN_CAP,
        backlog: (after, n) => staleAudioQuality(ctx.db, after, n),
        keyOf: (item) => item.key,
        errors: { source: 'audio_quality', entityOf: (item) => ({ kind: 'track', id: item.id }) },
        async work(item) {
          const audio_quality = { codec: item.codec, bit_depth: item.bit_depth, sample_rate: item.sample_rate, lossless: item.lossless };
          const appended = await enrich.enrich('track', item.id, 'mediaserver', { source: 'mediaserver', external_id: item.ref }, { audio_quality });
          return appended ? (item.lossless ? 'lossless' : 'lossy') : 'unchanged';
        },
      });
    },
  };
}
