import type { AppContext } from '../../infra/context.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { type TagItem, staleTags } from '../../projectors/enrichment/library-enrichment.reads.ts';
import { UNIFIED_TAGS_SOURCE } from '../../shared/canonical/compose-doc.ts';
import { enrichedKey } from '../../shared/canonical/doc-facts.ts';
import { type DrainParams, runDrain } from './drain.ts';
import { enrichmentCommands } from './enrichment-commands.ts';
import { LIBRARY_BATCH_CAP, LIBRARY_DRAIN_CAP } from './library-drains.ts';
import { unifyTags } from './tag-unifier.ts';

export const TAGS_TASK = 'enrich.tags';

/**
 * Tags, moods and styles of albums and tracks unified from every source's facts (no network):
 * folded, counted across sources, cut to the top N. An entity is unified again when its sources
 * report another number of raw tags.
 */
export function tagsTask(context: () => AppContext): TaskDefinition<DrainParams> {
  return {
    name: TAGS_TASK,
    resumable: true,
    run(task) {
      const ctx = context();
      const enrich = enrichmentCommands(ctx, task.startedBy);
      const own = enrichedKey(UNIFIED_TAGS_SOURCE, null);
      return runDrain<TagItem>({
        ctx,
        task,
        name: TAGS_TASK,
        scope: {},
        batchCap: LIBRARY_BATCH_CAP,
        drainCap: LIBRARY_DRAIN_CAP,
        backlog: (after, n) => staleTags(ctx.db, after, n),
        keyOf: (item) => item.id,
        errors: { source: 'tags', entityOf: (item) => ({ kind: item.kind, id: item.id }) },
        async work(item) {
          const unified = unifyTags(Object.entries(item.facts).filter(([key]) => key !== own).map(([, facts]) => facts));
          const appended = await enrich.enrich(item.kind, item.id, UNIFIED_TAGS_SOURCE, null, unified);
          if (!appended) return 'unchanged';
          return unified.tags.length + unified.moods.length + unified.styles.length > 0 ? 'tagged' : 'none';
        },
      });
    },
  };
}
