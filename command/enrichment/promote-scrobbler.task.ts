import type { AppContext } from '../../infra/context.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { scrobblerMbids } from '../../projectors/enrichment/metabase-enrichment.reads.ts';
import { canonicalCommands } from '../canonical/canonical-commands.ts';
import type { DrainParams } from './drain.ts';
import { runDrain } from './drain.ts';
import { BATCH_CAP, METABASE_DRAIN_CAP, checkedMbid } from './metabase-drains.ts';

export const PROMOTE_SCROBBLER_TASK = 'enrich.promote-scrobbler-mbids';
/** The scrobbler reports MBIDs for artists and tracks only (album ids there are unreliable). */
export const PROMOTABLE = ['artist', 'track'] as const;

/**
 * The MBIDs the scrobbler's payloads carried become metabase refs of the entities they describe,
 * without a request. The ref's claim guards it: an MBID another entity owns already is an error row
 * (`promote_scrobbler`) naming that owner, never a silent move; merging the two is the admin's call.
 */
export function promoteScrobblerTask(context: () => AppContext): TaskDefinition<DrainParams & { kind: (typeof PROMOTABLE)[number] }> {
  return {
    name: PROMOTE_SCROBBLER_TASK,
    resumable: true,
    run(task) {
      const ctx = context();
      const { kind } = task.params;
      const canonical = canonicalCommands(ctx, task.startedBy);
      return runDrain({
        ctx,
        task,
        name: PROMOTE_SCROBBLER_TASK,
        scope: { kind },
        batchCap: BATCH_CAP,
        drainCap: METABASE_DRAIN_CAP,
        backlog: (after, n) => scrobblerMbids(ctx.db, kind, after, n),
        keyOf: (item) => item.key,
        errors: { source: 'promote_scrobbler', entityOf: (item) => ({ kind, id: item.id }) },
        async work(item) {
          const mbid = checkedMbid(item.mbid);
          await canonical.link(kind, item.id, { source: 'metabase', external_id: mbid }, { rule: 'mbid', value: mbid });
          return 'promoted';
        },
      });
    },
  };
}
