import type { Schedule } from '../../infra/tasks/schedule.ts';
import { streamerConfigured } from '../../infra/upstreams/streamer/client.ts';
import { STREAMER_AUDIO_FEATURES_TASK } from '../../shared/streamer.ts';

/** Daily, and off while the streamer is not configured. */
export const audioFeaturesSchedule: Schedule = {
  task: STREAMER_AUDIO_FEATURES_TASK,
  everyMs: 24 * 60 * 60_000,
  enabled: (ctx) => streamerConfigured(ctx.config),
};
