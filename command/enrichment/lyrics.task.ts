import type { AppContext } from '../../infra/context.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { lyricsClients } from '../../infra/upstreams/lyrics/client.ts';
import { type LyricsItem, untriedLyrics } from '../../projectors/enrichment/lyrics.reads.ts';
import { type DrainParams, runDrain } from './drain.ts';
import { enrichmentCommands } from './enrichment-commands.ts';
import { lyricsOf } from './lyrics-facts.ts';

export const LYRICS_TASK = 'enrich.lyrics';
export const LYRICS_BATCH_CAP = 1000;
/** The most a `drain=true` run looks up; the next run continues after it. */
export const LYRICS_DRAIN_CAP = 20_000;

/**
 * Looks up the lyrics of every track never tried (by artist, title, album and length) and records
 * what the provider said on the track: plain and synced text, instrumental, or none. The media
 * server's own lyrics are not read yet (its client does not fetch lyrics streams).
 */
export function lyricsTask(context: () => AppContext): TaskDefinition<DrainParams> {
  return {
    name: LYRICS_TASK,
    resumable: true,
    run(task) {
      const ctx = context();
      const enrich = enrichmentCommands(ctx, task.startedBy);
      const provider = lyricsClients(ctx.config).drain;
      return runDrain<LyricsItem>({
        ctx,
        task,
        name: LYRICS_TASK,
        scope: {},
        batchCap: LYRICS_BATCH_CAP,
        drainCap: LYRICS_DRAIN_CAP,
        backlog: (after, n) => untriedLyrics(ctx.db, after, n),
        keyOf: (item) => item.id,
        errors: { source: 'lyrics', entityOf: (item) => ({ kind: 'track', id: item.id }) },
        async work(item) {
          const record = await provider.find({ track: item.name, artist: item.artist_name, album: item.album_title, duration_ms: item.duration_ms });
          const lyrics = lyricsOf(record);
          await enrich.enrich('track', item.id, 'lyrics', null, { lyrics });
          return lyrics.state === 'found' ? (lyrics.synced ? 'synced' : 'plain') : lyrics.state;
        },
      });
    },
  };
}
