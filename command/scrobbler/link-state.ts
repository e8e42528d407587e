import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a started link may wait for the scrobbler's callback. */
const MAX_AGE_MS = 60 * 60 * 1000;

/**
 * The `state` carried through the scrobbler's callback URL: issue time and an HMAC binding it to
 * the user who started the link, so a callback forged for another session is refused. Stateless,
 * so any API process can check it.
 */
export function issueLinkState(secret: string, username: string, nowMs = Date.now()): string {
  return `${nowMs.toString(36)}.${mac(secret, username, nowMs)}`;
}

export function linkStateValid(secret: string, username: string, state: string, nowMs = Date.now()): boolean {
  const [issued, sig] = state.split('.');
  const at = Number.parseInt(issued ?? '', 36);
  if (!sig || !Number.isFinite(at) || nowMs - at > MAX_AGE_MS || at - nowMs > 60_000) return false;
  const expected = Buffer.from(mac(secret, username, at));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function mac(secret: string, username: string, at: number): string {
  return createHmac('sha256', secret).update(`scrobbler-link\u0000${username.toLowerCase()}\u0000${at}`).digest('base64url');
}
