import type { AppContext } from '../../infra/context.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { metabase } from '../../infra/upstreams/metabase/metabase.ts';
import { unenrichedWith } from '../../projectors/enrichment/metabase-enrichment.reads.ts';
import type { DrainParams } from './drain.ts';
import { checkedMbid, metabaseRefDrain } from './metabase-drains.ts';
import { artistRelationFacts } from './metabase-facts.ts';

export const MB_RELATIONS_TASK = 'enrich.mb-relations';

/**
 * External links (official site, streaming pages, wiki) and ties to other artists (members, the
 * groups it belongs to, subgroups, founders, collaborations, tributes, family) onto artists with a
 * metabase ref, from the artist's lookup (one request, none when it is cached already).
 */
export function mbRelationsTask(context: () => AppContext): TaskDefinition<DrainParams> {
  return {
    name: MB_RELATIONS_TASK,
    resumable: true,
    run(task) {
      const ctx = context();
      const mb = metabase(ctx);
      return metabaseRefDrain(ctx, task, {
        name: MB_RELATIONS_TASK,
        kind: 'artist',
        errorSource: 'mb_relations',
        scope: {},
        backlog: (after, n) => unenrichedWith(ctx.db, 'artist', 'external_links', after, n),
        facts: async (item) => artistRelationFacts(await mb.lookup('artist', checkedMbid(item.mbid))),
      });
    },
  };
}
