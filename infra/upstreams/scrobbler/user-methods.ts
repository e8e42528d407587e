import { z } from 'zod';
import { PreconditionFailed } from '../../../shared/errors.ts';
import type { ScrobblerClient } from './client.ts';
import { ScrobblerFailure } from './errors.ts';

/** A play as the scrobbler takes it; names as the player shows them. */
export interface Play {
  artist: string;
  track: string;
  album?: string;
  album_artist?: string;
  duration?: number;
  track_number?: number;
  mbid?: string;
}

export interface PlayOutcome {
  artist: string;
  track: string;
  album: string | null;
  /** 0 when taken; otherwise the scrobbler's reason code (1 artist ignored, 2 track, 3 too old, 4 too new, 5 daily limit). */
  ignored_code: number;
  ignored_message: string | null;
}

const Text = z.union([z.string(), z.object({ '#text': z.string().optional() })]).optional();
const text = (v: z.infer<typeof Text>) => (typeof v === 'string' ? v : (v?.['#text'] ?? ''));
const Echo = z.object({
  artist: Text,
  track: Text,
  album: Text,
  timestamp: z.union([z.string(), z.number()]).optional(),
  ignoredMessage: z.object({ code: z.union([z.string(), z.number()]).optional(), '#text': z.string().optional() }).optional(),
});
const ScrobbleAnswer = z.object({
  scrobbles: z.object({
    scrobble: z.union([Echo, z.array(Echo)]),
    '@attr': z.object({ accepted: z.union([z.string(), z.number()]), ignored: z.union([z.string(), z.number()]) }),
  }),
});
const NowPlayingAnswer = z.object({ nowplaying: Echo });

function outcomeOf(echo: z.infer<typeof Echo>, play: Play): PlayOutcome {
  const code = Number(echo.ignoredMessage?.code ?? 0) || 0;
  return {
    artist: text(echo.artist) || play.artist,
    track: text(echo.track) || play.track,
    album: text(echo.album) || play.album || null,
    ignored_code: code,
    ignored_message: code === 0 ? null : echo.ignoredMessage?.['#text'] || null,
  };
}

const playParams = (play: Play): Record<string, string> => {
  const out: Record<string, string> = { artist: play.artist, track: play.track };
  if (play.album) out.album = play.album;
  if (play.album_artist) out.albumArtist = play.album_artist;
  if (play.duration !== undefined) out.duration = String(play.duration);
  if (play.track_number !== undefined) out.trackNumber = String(play.track_number);
  if (play.mbid) out.mbid = play.mbid;
  return out;
};

/**
 * The signed writes made on a user's behalf with their session key (POST, `sk`, `api_sig`). A key
 * the scrobbler no longer accepts means the link has to be made again: 412, not a fault.
 */
export function userMethods(client: ScrobblerClient, sessionKey: string) {
  async function write(method: string, params: Record<string, string>): Promise<unknown> {
    try {
      return await client.call(method, params, { sessionKey, signed: true, http: 'POST' });
    } catch (error) {
      if (error instanceof ScrobblerFailure && error.authRejected) throw new PreconditionFailed('The scrobbler no longer accepts this link; connect the scrobbler again');
      throw error;
    }
  }
  return {
    async love(artist: string, track: string): Promise<void> {
      await write('track.love', { artist, track });
    },
    async unlove(artist: string, track: string): Promise<void> {
      await write('track.unlove', { artist, track });
    },
    async scrobble(play: Play, timestamp: number): Promise<PlayOutcome & { accepted: number; ignored: number; timestamp: number }> {
      const parsed = ScrobbleAnswer.safeParse(await write('track.scrobble', { ...playParams(play), timestamp: String(timestamp) }));
      if (!parsed.success) throw new ScrobblerFailure(null, 'track.scrobble answered an unexpected shape');
      const { scrobble, '@attr': attr } = parsed.data.scrobbles;
      const echo = Array.isArray(scrobble) ? scrobble[0] : scrobble;
      return { accepted: Number(attr.accepted) || 0, ignored: Number(attr.ignored) || 0, timestamp, ...outcomeOf(echo ?? {}, play) };
    },
    async nowPlaying(play: Play): Promise<PlayOutcome> {
      const parsed = NowPlayingAnswer.safeParse(await write('track.updateNowPlaying', playParams(play)));
      if (!parsed.success) throw new ScrobblerFailure(null, 'track.updateNowPlaying answered an unexpected shape');
      return outcomeOf(parsed.data.nowplaying, play);
    },
  };
}
