import type { AppContext } from '../../infra/context.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { metabase } from '../../infra/upstreams/metabase/metabase.ts';
import type { EntityKind } from '../../infra/upstreams/metabase/musicbrainz.ts';
import type { MetabaseObject } from '../../infra/upstreams/metabase/schemas.ts';
import { unhydratedRefs } from '../../projectors/enrichment/metabase-enrichment.reads.ts';
import type { Facts, Kind } from '../../shared/events/canonical.events.ts';
import type { DrainParams } from './drain.ts';
import { lookupRef, metabaseRefDrain } from './metabase-drains.ts';
import { artistFacts, recordingFacts, releaseFacts, releaseGroupFacts } from './metabase-facts.ts';

export const HYDRATE_MB_TASK = 'enrich.hydrate-mb';

const FACTS: Partial<Record<EntityKind, (p: MetabaseObject) => Facts>> = {
  artist: artistFacts,
  'release-group': releaseGroupFacts,
  release: releaseFacts,
  recording: recordingFacts,
};

/**
 * Fetches the metabase entity of each metabase ref the cache does not hold yet (refs already
 * hydrated are not in the backlog), and records its identity facts (names, aliases, year, types,
 * length, genres) on the entity.
 */
export function hydrateMbTask(context: () => AppContext): TaskDefinition<DrainParams & { kind: Kind }> {
  return {
    name: HYDRATE_MB_TASK,
    resumable: true,
    run(task) {
      const ctx = context();
      const mb = metabase(ctx);
      const { kind } = task.params;
      return metabaseRefDrain(ctx, task, {
        name: HYDRATE_MB_TASK,
        kind,
        errorSource: 'hydrate_mb',
        scope: { kind },
        backlog: (after, n) => unhydratedRefs(ctx.db, kind, after, n),
        async facts(item) {
          const { cacheKind, payload } = await lookupRef(mb, kind, item.mbid);
          return FACTS[cacheKind]!(payload);
        },
      });
    },
  };
}
