import type { ZodType } from 'zod';
import { UpstreamError } from '../../../shared/errors.ts';
import type { UpstreamClient } from '../http-client.ts';
import { SERVICE, StreamerForbidden } from './errors.ts';

/** The access token of the user a call is made for; `renew` answers a fresh one after a 401. */
export interface AccessTokens {
  current(): Promise<string>;
  renew(): Promise<string>;
}

/**
 * Web API reads with a user's bearer token. A 401 renews the token once and repeats the call; 429
 * and 5xx are retried by the base client (Retry-After honoured). Paging links are followed only on
 * the configured API's own origin and path: a token never goes elsewhere.
 */
export function streamerApi(http: UpstreamClient, apiUrl: string, tokens: AccessTokens) {
  const prefix = `${apiUrl.replace(/\/+$/, '')}/`;

  /** A path under the API, from a path of ours or a `next` link the API gave. */
  function relative(pathOrLink: string): string {
    if (!/^https?:/i.test(pathOrLink)) return pathOrLink.replace(/^\/+/, '');
    if (!pathOrLink.startsWith(prefix)) throw new UpstreamError(SERVICE, 'a paging link points outside the configured API');
    return pathOrLink.slice(prefix.length);
  }

  async function get<T>(pathOrLink: string, schema: ZodType<T>): Promise<T> {
    const path = relative(pathOrLink);
    const call = (token: string) => http.request('GET', path, { headers: { authorization: `Bearer ${token}` }, allowStatuses: [401, 403] });
    let res = await call(await tokens.current());
    if (res.status === 401) res = await call(await tokens.renew());
    const label = `GET /${path.split('?')[0]}`;
    if (res.status === 401) throw new UpstreamError(SERVICE, `${label} refused a freshly renewed token`);
    if (res.status === 403) throw new StreamerForbidden(label);
    let data: unknown;
    try {
      data = JSON.parse(res.body.toString('utf8'));
    } catch {
      throw new UpstreamError(SERVICE, `${label} answered invalid JSON`);
    }
    const parsed = schema.safeParse(data);
    if (!parsed.success) throw new UpstreamError(SERVICE, `${label} answered an unexpected shape at ${parsed.error.issues[0]?.path.join('.') || '(root)'}`);
    return parsed.data;
  }

  return { get };
}

export type StreamerApi = ReturnType<typeof streamerApi>;
