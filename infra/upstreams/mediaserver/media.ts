import { Readable } from 'node:stream';
import type { Config } from '../../config.ts';
import type { Secrets } from '../../secrets.ts';
import { mediaserverClients } from './client.ts';
import { UpstreamError, UpstreamNotFound } from '../../../shared/errors.ts';
import { createUpstreamClient, type SearchParams } from '../http-client.ts';
import { MediaserverTokenRejected, SERVER_SERVICE } from './errors.ts';
import { plexHeaders } from './plex.ts';

export interface MediaClientOptions {
  baseUrl: string;
  /** The server-wide (admin) token; per-user calls pass their own. */
  token: string;
  clientId: string;
  timeoutMs?: number;
}

/** An upstream answer being streamed: its status, the headers worth passing on, and the body. */
export interface UpstreamStream {
  status: number;
  headers: Record<string, string>;
  body: Readable;
}

/** Headers of a media answer that a client needs to play and seek it. */
const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'last-modified', 'etag'];

/**
 * The media side of the server API: streaming parts and the universal transcoder (with the
 * caller's Range and an abort signal, so a client that goes away stops the upstream read), images,
 * and timeline reports. The token travels in the X-Plex-Token header only.
 */
export function createMediaClient(options: MediaClientOptions) {
  const http = createUpstreamClient({ service: SERVER_SERVICE, baseUrl: options.baseUrl, retries: 1, timeoutMs: options.timeoutMs });
  const base = options.baseUrl.replace(/\/+$/, '');

  async function stream(path: string, init: { range?: string; signal: AbortSignal; searchParams?: SearchParams }): Promise<UpstreamStream> {
    const url = new URL(base + path);
    for (const [k, v] of Object.entries(init.searchParams ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...plexHeaders(options.clientId, options.token), accept: '*/*' };
    if (init.range) headers.range = init.range;
    let res: Response;
    try {
      res = await fetch(url, { headers, signal: init.signal });
    } catch (error) {
      if (init.signal.aborted) throw error;
      throw new UpstreamError(SERVER_SERVICE, `GET ${path} failed (${(error as Error).cause ? String((error as { cause: { code?: string } }).cause.code) : 'network'})`);
    }
    if (res.status === 401) throw new MediaserverTokenRejected();
    if (res.status === 404) throw new UpstreamNotFound(SERVER_SERVICE, `GET ${path} found nothing`);
    if (res.status >= 400 && res.status !== 416) {
      await res.body?.cancel();
      throw new UpstreamError(SERVER_SERVICE, `GET ${path} answered ${res.status}`);
    }
    const passed: Record<string, string> = {};
    for (const name of PASSED_HEADERS) {
      const value = res.headers.get(name);
      if (value !== null) passed[name] = value;
    }
    const body = res.body ? Readable.fromWeb(res.body as import('node:stream/web').ReadableStream) : Readable.from([]);
    return { status: res.status, headers: passed, body };
  }

  return {
    /** A file part (`Part.key`), with the caller's Range forwarded. */
    part: (partKey: string, init: { range?: string; signal: AbortSignal }) => stream(partKey, init),
    /** The universal transcoder's MP3 of a track's first media part. */
    transcodeMp3: (ratingKey: string, init: { signal: AbortSignal; session: string }) =>
      stream('/music/:/transcode/universal/start.mp3', {
        signal: init.signal,
        searchParams: {
          path: `/library/metadata/${ratingKey}`,
          mediaIndex: 0,
          partIndex: 0,
          protocol: 'http',
          directPlay: 0,
          directStream: 0,
          audioCodec: 'mp3',
          session: init.session,
        },
      }),
    /** An image the server serves (a thumb or a playlist composite), whole. */
    async image(path: string, token?: string): Promise<{ type: string; body: Buffer }> {
      const res = await http.request('GET', path, { headers: { ...plexHeaders(options.clientId, token ?? options.token), accept: 'image/*' }, allowStatuses: [401] });
      if (res.status === 401) throw new MediaserverTokenRejected();
      return { type: String(res.headers['content-type'] ?? 'image/jpeg'), body: res.body };
    },
    /** A playback report with the user's own token, so the server's play counts and scrobbles are theirs. */
    async timeline(token: string, report: { ratingKey: string; state: string; timeMs: number; durationMs: number }): Promise<void> {
      const searchParams = {
        ratingKey: report.ratingKey,
        key: `/library/metadata/${report.ratingKey}`,
        identifier: 'com.plexapp.plugins.library',
        state: report.state,
        time: report.timeMs,
        duration: report.durationMs,
      };
      const res = await http.request('GET', '/:/timeline', { headers: plexHeaders(options.clientId, token), searchParams, allowStatuses: [401] });
      if (res.status === 401) throw new MediaserverTokenRejected();
    },
  };
}

export type MediaClient = ReturnType<typeof createMediaClient>;

const cache = new WeakMap<object, MediaClient>();

/** The configured server's media client, built once; 503 when the server is not configured. */
export function mediaserverMedia(ctx: { config: Config; secrets: Secrets }): MediaClient {
  const clients = mediaserverClients(ctx);
  clients.server();
  const cached = cache.get(ctx.config);
  if (cached) return cached;
  const client = createMediaClient({ baseUrl: ctx.config.MEDIASERVER_URL!, token: ctx.config.MEDIASERVER_TOKEN!, clientId: clients.clientId });
  cache.set(ctx.config, client);
  return client;
}
