import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { MILLISECONDS, bodyInt } from '../../infra/http/params.ts';
import { log } from '../../infra/logger.ts';
import { mediaserverMedia } from '../../infra/upstreams/mediaserver/media.ts';
import { playableItem } from '../../projectors/mediaserver/playback.reads.ts';
import { mediaserverLink } from './link.ts';

const TimelineBody = z.object({
  state: z.enum(['playing', 'paused', 'stopped']),
  time_ms: bodyInt(MILLISECONDS),
  duration_ms: bodyInt(MILLISECONDS),
});

export const timelineRoutes = [
  defineRoute({
    method: 'post',
    path: '/mediaserver/play/track/{canonical_id}/timeline',
    tag: 'mediaserver',
    summary: "Report playback (playing, paused, stopped) to the media server with the caller's own token",
    description:
      'The server counts a play from these reports. What the server answers is logged and never returned: a failed report must not interrupt playback, so the answer says only whether it was delivered.',
    access: 'user',
    params: z.object({ canonical_id: z.string().min(1).max(64) }),
    body: TimelineBody,
    response: z.object({ state: z.string(), reported: z.boolean() }),
    errors: { 404: 'No live mediaserver file for the track', 412: 'Media server account not linked', 503: 'The media server is not configured' },
    handler: async ({ ctx, params, body, user }) => {
      const token = await mediaserverLink(ctx).userToken(user.username);
      const media = mediaserverMedia(ctx);
      const item = await playableItem(ctx.db, params.canonical_id);
      try {
        await media.timeline(token, { ratingKey: item.rating_key, state: body.state, timeMs: body.time_ms, durationMs: body.duration_ms });
        return { state: body.state, reported: true };
      } catch (error) {
        log.warn('mediaserver: timeline report failed', { username: user.username, rating_key: item.rating_key, state: body.state, error: (error as Error).message });
        return { state: body.state, reported: false };
      }
    },
  }),
];
