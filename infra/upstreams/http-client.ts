import type { IncomingHttpHeaders } from 'node:http';
import type { Got, RequestError } from 'got';
import type { ZodType } from 'zod';
import { UpstreamError, UpstreamNotFound, UpstreamTimeout } from '../../shared/errors.ts';
import { log } from '../logger.ts';
import type { Pacer } from './pacer.ts';
import { isSameOrigin, MAX_REDIRECTS, REDIRECT_STATUSES, redirectTarget, refusedRedirect } from './redirects.ts';

/**
 * The base every client in infra/upstreams/ is built on: one got instance per service with timeouts,
 * paced attempts, retries that honour Retry-After, and failures turned into domain errors. Messages
 * and log lines carry the method and path only: query strings may hold api keys. Redirects are
 * followed on the same origin only (see redirects.ts), and a body larger than its cap is cut off.
 */
/** The product token every client names itself with; a service that asks for contact details adds them after it. */
export const USER_AGENT_PRODUCT = 'music-library-service/0.1.0';
export const DEFAULT_USER_AGENT = `${USER_AGENT_PRODUCT} ( self-hosted )`;

const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);
/** Answers that mean "refused before handling", so even a POST may be sent again. */
const REFUSED_STATUSES = new Set([429, 503]);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);
/** A Retry-After beyond this means give up now rather than hold a request open. */
const MAX_WAIT_MS = 60_000;
/** Pages of every upstream are far below this; more is a broken or hostile server. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type SearchParams = Record<string, string | number | boolean | undefined>;

export interface UpstreamClientOptions {
  service: string;
  baseUrl: string;
  timeoutMs?: number;
  retries?: number;
  /** First backoff step, doubled on each retry; tests shorten it. */
  retryBaseMs?: number;
  pacer?: Pacer;
  headers?: Record<string, string>;
  userAgent?: string;
  /** The largest body read into memory; DEFAULT_MAX_BODY_BYTES unless a call says otherwise. */
  maxBodyBytes?: number;
}

export interface CallOptions {
  searchParams?: SearchParams;
  headers?: Record<string, string>;
  /** Non-2xx statuses handed back like a success: an error envelope the caller reads, a 404 meaning "none". */
  allowStatuses?: readonly number[];
  maxBodyBytes?: number;
}
export interface JsonCallOptions<T> extends CallOptions {
  schema?: ZodType<T>;
}
export interface SendOptions extends CallOptions {
  form?: Record<string, string>;
  json?: unknown;
}
export interface UpstreamResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface UpstreamClient {
  readonly service: string;
  /** The escape hatch for XML, binary or status-driven protocols. */
  request(method: HttpMethod, path: string, options?: SendOptions): Promise<UpstreamResponse>;
  getText(path: string, options?: CallOptions): Promise<string>;
  /** An empty body (204) reads as null. */
  getJson<T = unknown>(path: string, options?: JsonCallOptions<T>): Promise<T>;
  postForm<T = unknown>(path: string, form: Record<string, string>, options?: JsonCallOptions<T>): Promise<T>;
  postJson<T = unknown>(path: string, body: unknown, options?: JsonCallOptions<T>): Promise<T>;
}

type Outcome = { response: UpstreamResponse } | { error: RequestError };

/**
 * got loads at the first upstream call, not at every start: with http2-wrapper (which sets up TLS
 * as it loads) it is a tenth of the service's module loading, and many starts call no upstream.
 */
let loading: Promise<typeof import('got')> | undefined;
const loadGot = () => (loading ??= import('got'));

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const { service, timeoutMs = 10_000, retries = 3, retryBaseMs = 500 } = options;
  const pacer = options.pacer ?? { schedule: (fn) => fn() };
  let http: Got | undefined;
  const extend = (got: Got): Got => got.extend({
    prefixUrl: options.baseUrl,
    timeout: { request: timeoutMs },
    // Retries are ours so that each one goes through the pacer and the log.
    retry: { limit: 0 },
    throwHttpErrors: false,
    // got strips only Authorization and cookies on a cross-origin hop; X-Plex-Token, api keys in
    // the query and signatures would travel on. Such a redirect is not followed (see settle).
    followRedirect: (response) => isSameOrigin(response.url, redirectTarget(response.url, response.headers.location)),
    maxRedirects: MAX_REDIRECTS,
    headers: { 'user-agent': options.userAgent ?? DEFAULT_USER_AGENT, ...options.headers },
  });

  async function attempt(method: HttpMethod, path: string, send: SendOptions): Promise<Outcome> {
    const { default: got, RequestError } = await loadGot();
    const client = (http ??= extend(got));
    const { headers, form, json } = send;
    const searchParams = queryOf(path, send.searchParams);
    // got's prefixUrl wants a path without a leading slash.
    const url = pathOf(path).slice(1);
    const maxBytes = send.maxBodyBytes ?? options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    let oversized = false;
    try {
      const res = await pacer.schedule(() => {
        const call = client(url, { method, searchParams, headers, form, json, responseType: 'buffer' });
        call.on('downloadProgress', ({ transferred, total }) => {
          if (transferred > maxBytes || (total ?? 0) > maxBytes) {
            oversized = true;
            call.cancel();
          }
        });
        return call;
      });
      return { response: { status: res.statusCode, headers: res.headers, body: res.body } };
    } catch (error) {
      if (oversized) throw new UpstreamError(service, `${labelOf(method, path)} answered more than ${sizeLabel(maxBytes)}`);
      if (error instanceof RequestError) return { error };
      throw error;
    }
  }

  async function request(method: HttpMethod, path: string, send: SendOptions = {}) {
    const allow = send.allowStatuses ?? [];
    for (let retry = 0; ; retry++) {
      const outcome = await attempt(method, path, send);
      const delay = retry < retries ? retryDelay(outcome, method, allow, retryBaseMs * 2 ** retry) : undefined;
      if (delay === undefined) return settle(outcome, labelOf(method, path), allow);
      const status = statusOf(outcome);
      log.warn('upstream retry', { service, method, path: pathOf(path), status, delayMs: delay });
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  function settle(outcome: Outcome, label: string, allow: readonly number[]): UpstreamResponse {
    if ('error' in outcome) {
      const { code } = outcome.error;
      if (code === 'ETIMEDOUT') throw new UpstreamTimeout(service, `${label} timed out after ${timeoutMs} ms`);
      throw new UpstreamError(service, `${label} failed (${code})`);
    }
    const { status, headers } = outcome.response;
    if ((status >= 200 && status < 300) || allow.includes(status)) return outcome.response;
    if (REDIRECT_STATUSES.has(status)) throw new UpstreamError(service, `${label} ${refusedRedirect(redirectTarget(options.baseUrl, headers.location))}`);
    if (status === 404) throw new UpstreamNotFound(service, `${label} found nothing`);
    const after = REFUSED_STATUSES.has(status) ? retryAfterMs(headers['retry-after']) : undefined;
    const note = after === undefined ? '' : ` (asked to retry after ${Math.ceil(after / 1000)} s)`;
    throw new UpstreamError(service, `${label} answered ${status}${note}`);
  }

  async function json<T>(method: HttpMethod, path: string, send: SendOptions, schema?: ZodType<T>) {
    const res = await request(method, path, send);
    return parseJson(service, labelOf(method, path), res, schema);
  }

  return {
    service,
    request,
    getText: async (path, opts) => (await request('GET', path, opts)).body.toString('utf8'),
    getJson: (path, opts = {}) => json('GET', path, opts, opts.schema),
    postForm: (path, form, opts = {}) => json('POST', path, { ...opts, form }, opts.schema),
    postJson: (path, body, opts = {}) => json('POST', path, { ...opts, json: body }, opts.schema),
  };
}

/** Milliseconds before the next attempt, or undefined when this outcome is final. */
function retryDelay(outcome: Outcome, method: HttpMethod, allow: readonly number[], stepMs: number) {
  const idempotent = IDEMPOTENT.has(method);
  if ('error' in outcome) return idempotent ? jitter(stepMs) : undefined;
  const { status, headers } = outcome.response;
  if (allow.includes(status) || !RETRY_STATUSES.has(status)) return undefined;
  if (!REFUSED_STATUSES.has(status)) return idempotent ? jitter(stepMs) : undefined;
  const after = retryAfterMs(headers['retry-after']);
  if (after === undefined) return jitter(stepMs);
  return after <= MAX_WAIT_MS ? after : undefined;
}

/** Half fixed, half random, so that clients failing together do not retry together. */
function jitter(stepMs: number): number {
  return Math.round(Math.min(stepMs, MAX_WAIT_MS) * (0.5 + Math.random() / 2));
}

/** Retry-After is either delay-seconds or an HTTP date. */
function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function statusOf(outcome: Outcome): number | string {
  return 'error' in outcome ? outcome.error.code : outcome.response.status;
}

/** A query may come in the path (a pagination link) as well as in searchParams. */
function queryOf(path: string, params: SearchParams = {}): URLSearchParams {
  const query = new URLSearchParams(path.split('?')[1] ?? '');
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) query.set(key, String(value));
  }
  return query;
}

/** The path as logged: never its query string. */
function pathOf(path: string): string {
  return `/${path.replace(/^\/+/, '').split('?')[0] ?? ''}`;
}

/** A byte count as people read it: `20 MiB`, `16 KiB`. */
function sizeLabel(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

function labelOf(method: HttpMethod, path: string): string {
  return `${method} ${pathOf(path)}`;
}

function parseJson<T>(service: string, label: string, res: UpstreamResponse, schema?: ZodType<T>): T {
  const text = res.body.toString('utf8');
  let data: unknown = null;
  try {
    if (text.trim() !== '') data = JSON.parse(text);
  } catch {
    throw new UpstreamError(service, `${label} answered invalid JSON`);
  }
  if (!schema) return data as T;
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.map(String).join('.') || '(root)';
  throw new UpstreamError(service, `${label} answered an unexpected shape at ${where}: ${issue?.message}`);
}
