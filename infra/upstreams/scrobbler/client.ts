import type { Config } from '../../config.ts';
import { log } from '../../logger.ts';
import { createUpstreamClient, type UpstreamClient, type UpstreamResponse } from '../http-client.ts';
import { createPacer, type Pacer } from '../pacer.ts';
import {
  AlbumInfoAnswer,
  ErrorEnvelope,
  type ItemInfo,
  RecentTracksAnswer,
  type RecentTracksPage,
  SessionAnswer,
  TrackInfoAnswer,
  normalizeAlbumInfo,
  normalizeRecentTracks,
  normalizeTrackInfo,
} from './schemas.ts';
import { ScrobblerFailure, SERVICE, errorFromEnvelope } from './errors.ts';
import { signed } from './signature.ts';
import { NotConfigured } from '../../../shared/errors.ts';

/** Statuses whose body may still be the scrobbler's error envelope (403 on a bad token, 503 when offline). */
const ENVELOPE_STATUSES = [400, 401, 403, 404, 429, 500, 502, 503, 504] as const;
/** The largest page user.getRecentTracks serves. */
export const RECENT_TRACKS_MAX_LIMIT = 200;

export interface ScrobblerClientOptions {
  apiUrl: string;
  authUrl: string;
  apiKey: string | undefined;
  secret: string | undefined;
  pacer?: Pacer;
  /** Attempts for a transient error code, each after a doubled wait from `backoffBaseMs`. */
  attempts?: number;
  backoffBaseMs?: number;
}

export interface CallOptions {
  /** Signed calls carry `api_sig` (auth and writes, and reads made with a session key). */
  signed?: boolean;
  sessionKey?: string;
  http?: 'GET' | 'POST';
  signal?: AbortSignal;
}

export interface RecentTracksQuery {
  page: number;
  limit?: number;
  /** Only scrobbles at or before this time (seconds): keeps page numbers stable while new ones arrive. */
  to?: number;
  from?: number;
  sessionKey?: string;
}

/**
 * The scrobbler's API 2.0 over JSON: one endpoint, `method` names the call, `api_key` and
 * `format=json` on every request. Transient error codes are retried with backoff; "not found" (6)
 * and other refusals are not.
 */
export function createScrobblerClient(options: ScrobblerClientOptions) {
  const { apiKey, secret, attempts = 4, backoffBaseMs = 2000 } = options;
  const http: UpstreamClient = createUpstreamClient({ service: SERVICE, baseUrl: options.apiUrl, pacer: options.pacer, retries: 2 });

  function requireKey(): { key: string; secret: string } {
    if (!apiKey || !secret) throw new NotConfigured('The scrobbler is not configured (SCROBBLER_API_KEY and SCROBBLER_API_SECRET)');
    return { key: apiKey, secret };
  }

  async function once(method: string, params: Record<string, string>, opts: CallOptions): Promise<unknown> {
    const creds = requireKey();
    let query: Record<string, string> = { ...params, method, api_key: creds.key };
    if (opts.sessionKey) query.sk = opts.sessionKey;
    if (opts.signed || opts.sessionKey) query = signed(query, creds.secret);
    query.format = 'json';
    const res =
      (opts.http ?? 'GET') === 'GET'
        ? await http.request('GET', '', { searchParams: query, allowStatuses: ENVELOPE_STATUSES })
        : await http.request('POST', '', { form: query, allowStatuses: ENVELOPE_STATUSES });
    return readAnswer(method, res);
  }

  async function call(method: string, params: Record<string, string> = {}, opts: CallOptions = {}): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await once(method, params, opts);
      } catch (error) {
        if (!(error instanceof ScrobblerFailure) || !error.retryable || attempt >= attempts) throw error;
        const delay = Math.round(backoffBaseMs * 2 ** (attempt - 1) * (0.75 + Math.random() / 4));
        log.warn('scrobbler: transient error, backing off', { method, code: error.code, attempt, delayMs: delay });
        await sleep(delay, opts.signal);
      }
    }
  }

  return {
    get configured() {
      return Boolean(apiKey && secret);
    },
    /** Throws NotConfigured (503) before work that would need the scrobbler later, in a task. */
    assertConfigured(): void {
      requireKey();
    },
    call,

    /** Where to send the browser: the scrobbler asks the user, then calls `callbackUrl?token=…`. */
    authorizeUrl(callbackUrl: string): string {
      const url = new URL(options.authUrl.endsWith('/') ? options.authUrl : `${options.authUrl}/`);
      url.searchParams.set('api_key', requireKey().key);
      url.searchParams.set('cb', callbackUrl);
      return url.toString();
    },

    /** Exchanges an authorized web-auth token for a session key (which never expires). */
    async getSession(token: string): Promise<{ name: string; key: string }> {
      const answer = SessionAnswer.safeParse(await call('auth.getSession', { token }, { signed: true, http: 'POST' }));
      if (!answer.success) throw new ScrobblerFailure(null, 'auth.getSession answered an unexpected shape');
      return { name: answer.data.session.name, key: answer.data.session.key };
    },

    async recentTracks(user: string, q: RecentTracksQuery, signal?: AbortSignal): Promise<RecentTracksPage> {
      const params: Record<string, string> = { user, page: String(q.page), limit: String(q.limit ?? RECENT_TRACKS_MAX_LIMIT) };
      if (q.to !== undefined) params.to = String(q.to);
      if (q.from !== undefined) params.from = String(q.from);
      const answer = RecentTracksAnswer.safeParse(await call('user.getRecentTracks', params, { sessionKey: q.sessionKey, signal }));
      if (!answer.success) throw new ScrobblerFailure(null, 'user.getRecentTracks answered an unexpected shape');
      return normalizeRecentTracks(answer.data);
    },

    /** album.getInfo; an unknown album is UpstreamNotFound (error 6). */
    async albumInfo(artist: string, album: string): Promise<ItemInfo> {
      const answer = AlbumInfoAnswer.safeParse(await call('album.getInfo', { artist, album, autocorrect: '0' }));
      if (!answer.success) throw new ScrobblerFailure(null, 'album.getInfo answered an unexpected shape');
      return normalizeAlbumInfo(answer.data);
    },

    /** track.getInfo; the scrobbler answers a stub rather than an error for most unknown tracks. */
    async trackInfo(artist: string, track: string): Promise<ItemInfo> {
      const answer = TrackInfoAnswer.safeParse(await call('track.getInfo', { artist, track, autocorrect: '0' }));
      if (!answer.success) throw new ScrobblerFailure(null, 'track.getInfo answered an unexpected shape');
      return normalizeTrackInfo(answer.data);
    },
  };
}

export type ScrobblerClient = ReturnType<typeof createScrobblerClient>;

/** A body is either the answer, or the error envelope (whatever the status), or a fault. */
function readAnswer(method: string, res: UpstreamResponse): unknown {
  const text = res.body.toString('utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    const xmlCode = /<error code="(\d+)">([^<]*)</.exec(text);
    if (xmlCode) throw errorFromEnvelope(Number(xmlCode[1]), xmlCode[2]!.trim());
    throw new ScrobblerFailure(res.status >= 500 ? 16 : null, `${method} answered ${res.status} without JSON`);
  }
  const envelope = ErrorEnvelope.safeParse(data);
  if (envelope.success) throw errorFromEnvelope(envelope.data.error, envelope.data.message);
  // A 5xx or 429 without an envelope is the same transient condition as code 16 or 29.
  if (res.status === 429) throw new ScrobblerFailure(29, `${method} answered 429`);
  if (res.status >= 500) throw new ScrobblerFailure(16, `${method} answered ${res.status}`);
  if (res.status >= 400) throw new ScrobblerFailure(null, `${method} answered ${res.status}`);
  return data;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const clients = new WeakMap<Config, ScrobblerClient>();

/** One client per configuration, so that its pacing is shared by every caller in the process. */
export function scrobblerClient(config: Config): ScrobblerClient {
  let client = clients.get(config);
  if (!client) {
    const real = config.UPSTREAM_PACING === 'real';
    client = createScrobblerClient({
      apiUrl: config.SCROBBLER_API_URL,
      authUrl: config.SCROBBLER_AUTH_URL,
      apiKey: config.SCROBBLER_API_KEY,
      secret: config.SCROBBLER_API_SECRET,
      // The scrobbler asks for at most five requests a second per client.
      pacer: createPacer({ enabled: real, minIntervalMs: 200 }),
      backoffBaseMs: real ? 2000 : 20,
    });
    clients.set(config, client);
  }
  return client;
}
