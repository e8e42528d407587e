import { z } from 'zod';

/** The task a sync runs as, and the daily audio-features task. */
export const STREAMER_SYNC_TASK = 'streamer.sync';
export const STREAMER_AUDIO_FEATURES_TASK = 'streamer.audio_features';
/** The playlist id that stands for the saved tracks ("liked songs"). */
export const LIKED_SONGS_ID = '__liked_songs__';

/** The link as `GET /streamer/me` shows it: identity, never a token. */
export const StreamerLinkView = z.object({
  account_id: z.string(),
  display_name: z.string().nullable(),
  linked_at: z.string(),
  last_sync_at: z.string().nullable(),
  state: z.enum(['linked', 'needs_relink']),
  state_reason: z.string().nullable(),
});
