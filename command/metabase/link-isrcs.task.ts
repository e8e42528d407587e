import type { AppContext } from '../../infra/context.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { metabase } from '../../infra/upstreams/metabase/metabase.ts';
import { unlinkedByCode } from '../../projectors/enrichment/metabase-enrichment.reads.ts';
import { UpstreamNotFound } from '../../shared/errors.ts';
import { foldName } from '../../shared/names.ts';
import { canonicalCommands } from '../canonical/canonical-commands.ts';
import { type DrainParams, runDrain } from '../enrichment/drain.ts';
import { BATCH_CAP, METABASE_DRAIN_CAP } from '../enrichment/metabase-drains.ts';

export const LINK_ISRCS_TASK = 'metabase.link-isrcs';

/**
 * Binds canonical tracks with an ISRC and no metabase ref to the recording that carries the ISRC
 * (`/isrc/{isrc}`, one paced request each, misses cached). When several recordings carry it, the
 * one with the track's title wins, else the first. An unknown ISRC, or a recording another track
 * owns, is an `isrc_link` error row.
 */
export function linkIsrcsTask(context: () => AppContext): TaskDefinition<DrainParams> {
  return {
    name: LINK_ISRCS_TASK,
    resumable: true,
    run(task) {
      const ctx = context();
      const mb = metabase(ctx);
      const canonical = canonicalCommands(ctx, task.startedBy);
      return runDrain({
        ctx,
        task,
        name: LINK_ISRCS_TASK,
        scope: {},
        batchCap: BATCH_CAP,
        drainCap: METABASE_DRAIN_CAP,
        backlog: (after, n) => unlinkedByCode(ctx.db, 'isrc', after, n),
        keyOf: (item) => item.key,
        errors: { source: 'isrc_link', entityOf: (item) => ({ kind: 'track', id: item.id }) },
        async work(track) {
          const answer = await mb.recordingsByIsrc(track.code);
          if (!answer || answer.recordings.length === 0) throw new UpstreamNotFound('metabase', `no recording has ISRC ${track.code}`);
          const title = foldName(track.name ?? '');
          const recording = answer.recordings.find((r) => foldName(r.title) === title) ?? answer.recordings[0]!;
          await canonical.link('track', track.id, { source: 'metabase', external_id: recording.id.toLowerCase() }, { rule: 'isrc', value: track.code });
          return 'linked';
        },
      });
    },
  };
}
