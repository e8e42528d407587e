import { z } from 'zod';
import { UpstreamError } from '../../../shared/errors.ts';
import type { Config } from '../../config.ts';
import { createUpstreamClient } from '../http-client.ts';
import { LyricsRecord } from './schemas.ts';

export const LYRICS_SERVICE = 'lyrics';
/** A search result farther than this from the track's length is another recording. */
const DURATION_TOLERANCE_S = 2;
/** What a listener waits for lyrics fetched while they look: one attempt, then "not found" with the reason. */
export const ON_DEMAND_TIMEOUT_MS = 5000;

export interface LyricsQuery {
  track: string;
  artist: string;
  album: string | null;
  duration_ms: number | null;
}

export interface LyricsClientOptions {
  baseUrl: string;
  timeoutMs?: number;
  retries?: number;
  retryBaseMs?: number;
}

/**
 * The lyrics provider (LRCLIB's API). With album and length known, `/api/get` asks for the exact
 * record; otherwise `/api/search` by track and artist, keeping a result of the same length when
 * the length is known. "Has none" is null; faults are UpstreamError.
 */
export function createLyricsClient(options: LyricsClientOptions) {
  const http = createUpstreamClient({ service: LYRICS_SERVICE, baseUrl: options.baseUrl, timeoutMs: options.timeoutMs, retries: options.retries, retryBaseMs: options.retryBaseMs });
  return {
    async find(q: LyricsQuery): Promise<LyricsRecord | null> {
      const seconds = q.duration_ms === null ? null : Math.round(q.duration_ms / 1000);
      if (q.album !== null && seconds !== null) {
        const res = await http.request('GET', '/api/get', { searchParams: { track_name: q.track, artist_name: q.artist, album_name: q.album, duration: seconds }, allowStatuses: [404] });
        if (res.status === 404) return null;
        return recordOf(res.body);
      }
      const rows = await http.getJson('/api/search', { searchParams: { track_name: q.track, artist_name: q.artist }, schema: z.array(LyricsRecord) });
      return rows.find((r) => seconds === null || (r.duration != null && Math.abs(r.duration - seconds) <= DURATION_TOLERANCE_S)) ?? null;
    },
  };
}

function recordOf(body: Buffer): LyricsRecord {
  try {
    return LyricsRecord.parse(JSON.parse(body.toString('utf8')));
  } catch {
    throw new UpstreamError(LYRICS_SERVICE, 'GET /api/get answered an unexpected body');
  }
}

export type LyricsClient = ReturnType<typeof createLyricsClient>;

const clients = new WeakMap<Config, { drain: LyricsClient; onDemand: LyricsClient }>();

/** The process's clients: the drains' (retries with backoff) and the on-demand one (one attempt within 5 s). */
export function lyricsClients(config: Config) {
  let pair = clients.get(config);
  if (!pair) {
    const retryBaseMs = config.UPSTREAM_PACING === 'real' ? 1000 : 10;
    pair = {
      drain: createLyricsClient({ baseUrl: config.LYRICS_API_URL, retryBaseMs }),
      onDemand: createLyricsClient({ baseUrl: config.LYRICS_API_URL, timeoutMs: ON_DEMAND_TIMEOUT_MS, retries: 0 }),
    };
    clients.set(config, pair);
  }
  return pair;
}
