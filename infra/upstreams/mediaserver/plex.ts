import type { ZodType } from 'zod';
import { UpstreamError } from '../../../shared/errors.ts';
import type { UpstreamResponse } from '../http-client.ts';
import { xmlToJson } from './xml.ts';

/**
 * The wire protocol both services share: who the client is, JSON asked for, and the token in the
 * `X-Plex-Token` header (never the query string, which proxies and access logs keep).
 */
export const PRODUCT = 'music-library-service';

export function plexHeaders(clientId: string, token?: string): Record<string, string> {
  return {
    accept: 'application/json',
    'x-plex-client-identifier': clientId,
    'x-plex-product': PRODUCT,
    ...(token ? { 'x-plex-token': token } : {}),
  };
}

/** The body as JSON, whichever of JSON or XML the server chose to answer. */
export function decodeBody(service: string, label: string, res: UpstreamResponse): unknown {
  const text = res.body.toString('utf8');
  if (text.trim() === '') return null;
  const type = String(res.headers['content-type'] ?? '');
  const looksXml = type.includes('xml') || (!type.includes('json') && text.trimStart().startsWith('<'));
  try {
    return looksXml ? xmlToJson(text) : JSON.parse(text);
  } catch {
    throw new UpstreamError(service, `${label} answered an unreadable ${looksXml ? 'XML' : 'JSON'} body`);
  }
}

export function parseWith<T>(service: string, label: string, schema: ZodType<T>, data: unknown): T {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.map(String).join('.') || '(root)';
  throw new UpstreamError(service, `${label} answered an unexpected shape at ${where}: ${issue?.message}`);
}

/** The account service's JSON user answers are bare objects; its XML wraps them in `<user>`. */
export function unwrapUser(data: unknown): unknown {
  if (data && typeof data === 'object' && 'user' in data && !('id' in data)) return (data as { user: unknown }).user;
  return data;
}

/**
 * Where the user completes a PIN: the account service's web app, which shows a sign-in and then
 * links the PIN to this client. A self-hosted or fake account service serves its own `/auth`.
 */
export function pinAuthUrl(accountBaseUrl: string, clientId: string, code: string): string {
  const base = /^https:\/\/plex\.tv\/?$/.test(accountBaseUrl) ? 'https://app.plex.tv' : accountBaseUrl.replace(/\/+$/, '');
  const query = new URLSearchParams({ clientID: clientId, code, 'context[device][product]': PRODUCT });
  return `${base}/auth#?${query.toString()}`;
}
