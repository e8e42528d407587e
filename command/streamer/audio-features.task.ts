import type { AppContext } from '../../infra/context.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { streamerClients } from '../../infra/upstreams/streamer/client.ts';
import { StreamerForbidden } from '../../infra/upstreams/streamer/errors.ts';
import { AudioFeatures } from '../../infra/upstreams/streamer/schemas.ts';
import { STREAMER_AUDIO_FEATURES_TASK } from '../../shared/streamer.ts';
import { tracksWithoutFeatures } from './audio-features.lookups.ts';

/** The endpoint takes up to 100 ids a call. */
const IDS_PER_CALL = 100;
/** Tracks asked for per run: the backlog drains over the daily runs. */
const PER_RUN = 1000;

/**
 * Asks the streamer for the audio features of canonical tracks with a streamer ref and none yet,
 * with an app token (client credentials). The endpoint answers 403 to applications registered
 * since late 2024: the run stops at the first 403 and is recorded `fetch_failed`.
 */
export function audioFeaturesTask(context: () => AppContext): TaskDefinition<Record<string, never>> {
  return {
    name: STREAMER_AUDIO_FEATURES_TASK,
    async run(task) {
      const ctx = context();
      const clients = streamerClients(ctx.config);
      const candidates = await tracksWithoutFeatures(ctx.db, PER_RUN);
      const counts = { candidates: candidates.length, calls: 0, forbidden: 0, fetched: 0 };
      if (candidates.length === 0) return { outcome: 'nothing_to_do', ...counts };
      let token: Promise<string> | undefined;
      const appToken = async () => (await clients.accounts.appToken()).access_token;
      const api = clients.api({ current: () => (token ??= appToken()), renew: () => (token = appToken()) });
      for (let i = 0; i < candidates.length; i += IDS_PER_CALL) {
        task.checkpoint();
        const ids = candidates.slice(i, i + IDS_PER_CALL);
        counts.calls++;
        let answer;
        try {
          answer = await api.get(`audio-features?ids=${ids.join(',')}`, AudioFeatures);
        } catch (error) {
          if (!(error instanceof StreamerForbidden)) throw error;
          counts.forbidden++;
          return { outcome: 'fetch_failed', error: error.message, ...counts };
        }
        const at = new Date();
        const rows = ids.map((id, n) => ({ track_id: id, features: answer.audio_features[n] ? JSON.stringify(answer.audio_features[n]) : null, fetched_at: at }));
        await ctx.db
          .insertInto('streamer_audio_features')
          .values(rows)
          .onConflict((oc) => oc.column('track_id').doUpdateSet((eb) => ({ features: eb.ref('excluded.features'), fetched_at: eb.ref('excluded.fetched_at') })))
          .execute();
        counts.fetched += rows.filter((r) => r.features !== null).length;
        await task.progress(counts);
      }
      return { outcome: 'ok', ...counts };
    },
  };
}
