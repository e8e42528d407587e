import { Readable } from 'node:stream';
import type { Config } from '../../config.ts';
import type { Secrets } from '../../secrets.ts';
import { mediaserverClients } from './client.ts';
import { UpstreamError, UpstreamNotFound } from '../../../shared/errors.ts';
import { createUpstreamClient, type SearchParams } from '../http-client.ts';
import { isSameOrigin, MAX_REDIRECTS, REDIRECT_STATUSES, redirectTarget, refusedRedirect } from '../redirects.ts';
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
/** Covers are a few hundred KiB; anything past this is not a cover worth holding in memory. */
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/**
 * The media side of the server API: streaming parts and the universal transcoder (with the
 * caller's Range and an abort signal, so a client that goes away stops the upstream read), images,
 * and timeline reports. The token travels in the X-Plex-Token header only, and only to the server's
 * own origin: streams follow same-origin redirects themselves, images go through the got client.
 */
export function createMediaClient(options: MediaClientOptions) {
  const http = createUpstreamClient({ service: SERVER_SERVICE, baseUrl: options.baseUrl, retries: 1, timeoutMs: options.timeoutMs });
  const base = options.baseUrl.replace(/\/+$/, '');

  async function stream(path: string, init: { range?: string; signal: AbortSignal; searchParams?: SearchParams }): Promise<UpstreamStream> {
    const url = new URL(base + path);
    for (const [k, v] of Object.entries(init.searchParams ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...plexHeaders(options.clientId, options.token), accept: '*/*' };
    if (init.range) headers.range = init.range;
    const res = await sameOriginFetch(url, headers, init.signal, `GET ${path}`);
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
    /** An image the server serves (a thumb or a playlist composite), whole; anything but `image/*` is a 502. */
    async image(path: string, token?: string): Promise<{ type: string; body: Buffer }> {
      const headers = { ...plexHeaders(options.clientId, token ?? options.token), accept: 'image/*' };
      const res = await http.request('GET', path, { headers, allowStatuses: [401], maxBodyBytes: MAX_IMAGE_BYTES });
      if (res.status === 401) throw new MediaserverTokenRejected();
      const type = res.headers['content-type'] ?? '';
      if (!/^image\//i.test(type)) throw new UpstreamError(SERVER_SERVICE, `GET ${path.split('?')[0]} answered ${type || 'no content type'} where an image was expected`);
      return { type, body: res.body };
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

/**
 * fetch with redirects handled here: `redirect: 'follow'` would carry X-Plex-Token to any host the
 * server names. Same-origin hops keep the headers (a Range included); another origin is a 502.
 */
async function sameOriginFetch(url: URL, headers: Record<string, string>, signal: AbortSignal, label: string): Promise<Response> {
  for (let hops = 0; ; hops++) {
    let res: Response;
    try {
      res = await fetch(url, { headers, signal, redirect: 'manual' });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new UpstreamError(SERVER_SERVICE, `${label} failed (${(error as Error).cause ? String((error as { cause: { code?: string } }).cause.code) : 'network'})`);
    }
    if (!REDIRECT_STATUSES.has(res.status)) return res;
    await res.body?.cancel();
    const target = redirectTarget(url, res.headers.get('location') ?? undefined);
    if (!isSameOrigin(url, target)) throw new UpstreamError(SERVER_SERVICE, `${label} ${refusedRedirect(target)}`);
    if (hops >= MAX_REDIRECTS) throw new UpstreamError(SERVER_SERVICE, `${label} redirected more than ${MAX_REDIRECTS} times`);
    url = target;
  }
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
