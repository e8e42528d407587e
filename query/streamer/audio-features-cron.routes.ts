import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { queryInt } from '../../infra/http/params.ts';
import { streamerConfigured } from '../../infra/upstreams/streamer/client.ts';
import { previousRuns } from '../../projectors/tasks/task-history.reads.ts';
import { STREAMER_AUDIO_FEATURES_TASK } from '../../shared/streamer.ts';

const Run = z.object({
  task_id: z.string(),
  status: z.string(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  candidates: z.number().int(),
  calls: z.number().int(),
  forbidden: z.number().int(),
  fetched: z.number().int(),
  error: z.string().nullable(),
});

const count = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : 0);

export const audioFeaturesCronRoutes = [
  defineRoute({
    method: 'get',
    path: '/admin/streamer/audio-features-cron-status',
    tag: 'streamer',
    summary: 'Recent runs of the daily streamer audio-features task, and whether the endpoint looks deprecated',
    description:
      '`deprecated` is true when the recent runs made calls and every one of them got 403 (runs recorded `fetch_failed`): the streamer refuses the endpoint to applications registered since late 2024. `pending_tracks` counts canonical tracks with a streamer ref and no features asked for yet.',
    access: 'admin',
    query: z.object({ limit: queryInt(20, { min: 1, max: 200 }) }),
    response: z.object({ configured: z.boolean(), every_hours: z.number().int(), pending_tracks: z.number().int(), deprecated: z.boolean(), runs: z.array(Run) }),
    handler: async ({ ctx, query }) => {
      const runs = (await previousRuns(ctx.db, STREAMER_AUDIO_FEATURES_TASK, query.limit)).map((r) => ({
        task_id: r.task_id,
        status: r.status,
        started_at: r.started_at,
        finished_at: r.finished_at,
        candidates: count(r.summary?.candidates ?? r.progress?.candidates),
        calls: count(r.summary?.calls ?? r.progress?.calls),
        forbidden: count(r.summary?.forbidden ?? r.progress?.forbidden),
        fetched: count(r.summary?.fetched ?? r.progress?.fetched),
        error: r.error ?? (typeof r.summary?.error === 'string' ? r.summary.error : null),
      }));
      const calls = runs.reduce((n, r) => n + r.calls, 0);
      const forbidden = runs.reduce((n, r) => n + r.forbidden, 0);
      const pending = await ctx.db
        .selectFrom('external_refs as r')
        .leftJoin('streamer_audio_features as f', 'f.track_id', 'r.external_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('r.kind', '=', 'track')
        .where('r.source', '=', 'streamer')
        .where('f.track_id', 'is', null)
        .executeTakeFirstOrThrow();
      return { configured: streamerConfigured(ctx.config), every_hours: 24, pending_tracks: Number(pending.n), deprecated: calls > 0 && forbidden === calls, runs };
    },
  }),
];
