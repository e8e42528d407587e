/**
 * Upstream requests carry credentials (tokens in headers, api keys and signatures in the query), so
 * a redirect is followed only while it stays on the origin it came from; a redirect elsewhere is a
 * failure of that upstream, never a request to the other origin.
 */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Same-origin hops followed before giving up (a server redirecting in a loop). */
export const MAX_REDIRECTS = 5;

/** Where a redirect points, resolved against the URL that answered it; null when unparseable. */
export function redirectTarget(from: string | URL, location: string | undefined): URL | null {
  if (!location) return null;
  try {
    return new URL(location, from);
  } catch {
    return null;
  }
}

export function isSameOrigin(from: string | URL, target: URL | null): target is URL {
  return target !== null && target.origin === new URL(from).origin;
}

/** What an error says about a refused redirect: the other origin only, never its path or query. */
export function refusedRedirect(target: URL | null): string {
  return `redirected to another origin (${target?.origin ?? 'an unreadable location'}): not followed`;
}
