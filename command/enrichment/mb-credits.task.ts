import type { AppContext } from '../../infra/context.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { metabase } from '../../infra/upstreams/metabase/metabase.ts';
import { unenrichedWith } from '../../projectors/enrichment/metabase-enrichment.reads.ts';
import type { DrainParams } from './drain.ts';
import { checkedMbid, metabaseRefDrain } from './metabase-drains.ts';
import { creditFacts, worksOf } from './metabase-facts.ts';

export const MB_CREDITS_TASK = 'enrich.mb-credits';
/** Medleys perform many works; the credits of the first few say who wrote the track. */
const MAX_WORKS = 5;

/**
 * Composer, lyricist and writer credits onto tracks with a metabase ref: the recording with its
 * work relations, then each work with its artist relations (two requests or more per track,
 * fewer when cached). A recording of no work is recorded as having no credits, and leaves the backlog.
 */
export function mbCreditsTask(context: () => AppContext): TaskDefinition<DrainParams> {
  return {
    name: MB_CREDITS_TASK,
    resumable: true,
    run(task) {
      const ctx = context();
      const mb = metabase(ctx);
      return metabaseRefDrain(ctx, task, {
        name: MB_CREDITS_TASK,
        kind: 'track',
        errorSource: 'mb_credits',
        scope: {},
        backlog: (after, n) => unenrichedWith(ctx.db, 'track', 'credits', after, n),
        async facts(item) {
          const recording = await mb.lookup('recording', checkedMbid(item.mbid));
          const works = [];
          for (const work of worksOf(recording).slice(0, MAX_WORKS)) {
            task.checkpoint();
            works.push(await mb.lookup('work', checkedMbid(work.id)));
          }
          return creditFacts(works);
        },
      });
    },
  };
}
