import { createHash } from 'node:crypto';

/** Parameters the scrobbler leaves out of the signature (they only shape the answer). */
const UNSIGNED = new Set(['format', 'callback']);

/**
 * The scrobbler's `api_sig`: every parameter except `format` and `callback`, sorted by name, as
 * name + value concatenated, then the shared secret, hashed with md5 over UTF-8.
 */
export function apiSignature(params: Record<string, string>, secret: string): string {
  const body = Object.keys(params)
    .filter((name) => !UNSIGNED.has(name))
    .sort()
    .map((name) => `${name}${params[name]}`)
    .join('');
  return createHash('md5').update(body + secret, 'utf8').digest('hex');
}

/** The same parameters with `api_sig` added. */
export function signed(params: Record<string, string>, secret: string): Record<string, string> {
  return { ...params, api_sig: apiSignature(params, secret) };
}
