import type { AppContext } from '../../infra/context.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { artistCatalog, staleArtists } from '../../projectors/enrichment/library-enrichment.reads.ts';
import { discographyFacts } from './discography.ts';
import { type DrainParams, runDrain } from './drain.ts';
import { enrichmentCommands } from './enrichment-commands.ts';
import { LIBRARY_BATCH_CAP, LIBRARY_DRAIN_CAP } from './library-drains.ts';

export const ARTIST_REPROJECT_TASK = 'enrich.artist-reproject';

/**
 * Artist docs recomputed from their live albums and tracks (no network): counts, first and last
 * year, the albums' genres, and a picture when no source gives one. An artist is back in the
 * backlog when its counts or years no longer match (an album merged away, a new one synced).
 */
export function artistReprojectTask(context: () => AppContext): TaskDefinition<DrainParams> {
  return {
    name: ARTIST_REPROJECT_TASK,
    resumable: true,
    run(task) {
      const ctx = context();
      const enrich = enrichmentCommands(ctx, task.startedBy);
      return runDrain<{ id: string }>({
        ctx,
        task,
        name: ARTIST_REPROJECT_TASK,
        scope: {},
        batchCap: LIBRARY_BATCH_CAP,
        drainCap: LIBRARY_DRAIN_CAP,
        backlog: (after, n) => staleArtists(ctx.db, after, n),
        keyOf: (item) => item.id,
        errors: { source: 'artist_reproject', entityOf: (item) => ({ kind: 'artist', id: item.id }) },
        async work(item) {
          const { albums, tracks } = await artistCatalog(ctx.db, item.id);
          const appended = await enrich.enrich('artist', item.id, 'discography', null, discographyFacts(albums, tracks));
          return appended ? 'reprojected' : 'unchanged';
        },
      });
    },
  };
}
