import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { BadRequest } from '../../shared/errors.ts';
import { usernameKey } from '../../shared/usernames.ts';
import type { Database } from '../db/database.ts';

/** How long a started link may wait for the upstream's callback. */
export const CALLBACK_STATE_TTL_MS = 10 * 60_000;
/** Processes' clocks may differ a little: a state issued slightly "in the future" is still ours. */
const CLOCK_SKEW_MS = 60_000;

export type StateRefusal = 'missing' | 'invalid' | 'expired' | 'used';

const MESSAGES: Record<StateRefusal, string> = {
  missing: 'The callback carries no state: start the link again from this service',
  invalid: 'The callback state was not issued to this session: start the link again',
  expired: 'The callback state has expired: start the link again',
  used: 'The callback state was already used: start the link again',
};

/** A callback whose `state` cannot be honoured; `reason` lets a flow that redirects say why. */
export class CallbackStateRefused extends BadRequest {
  constructor(readonly reason: StateRefusal) {
    super(MESSAGES[reason]);
  }
}

/**
 * The `state` an OAuth or web-auth flow carries through the upstream and back to its callback:
 * issue time, a random nonce and an HMAC binding both to the purpose and the user who started the
 * flow. The signature makes it checkable by any process without a row per started flow (abandoned
 * starts leave nothing behind); the nonce makes it usable once (see consumeCallbackState) and is
 * the per-flow secret a PKCE verifier can be derived from.
 */
export function issueCallbackState(secret: string, purpose: string, username: string, nowMs = Date.now()): string {
  const issued = nowMs.toString(36);
  const nonce = randomBytes(16).toString('base64url');
  return `${issued}.${nonce}.${mac(secret, purpose, username, issued, nonce)}`;
}

/** The state's nonce and issue time when it is ours, this user's and fresh; refused otherwise. */
export function verifyCallbackState(secret: string, purpose: string, username: string, state: string | undefined, nowMs = Date.now()) {
  if (!state) throw new CallbackStateRefused('missing');
  const [issued = '', nonce = '', sig = '', ...rest] = state.split('.');
  const expected = Buffer.from(mac(secret, purpose, username, issued, nonce));
  const given = Buffer.from(sig);
  if (rest.length > 0 || !nonce || expected.length !== given.length || !timingSafeEqual(expected, given)) throw new CallbackStateRefused('invalid');
  const issuedAt = Number.parseInt(issued, 36);
  if (!Number.isFinite(issuedAt) || nowMs - issuedAt > CALLBACK_STATE_TTL_MS || issuedAt - nowMs > CLOCK_SKEW_MS) throw new CallbackStateRefused('expired');
  return { nonce, issuedAt };
}

/**
 * Verifies the state and records its use. The claim is a row keyed by the nonce, inserted with
 * `on conflict do nothing`: of two callbacks racing with one state (in any processes sharing the
 * database) exactly one inserts. A consumed state is not a domain fact an auditor needs, so it is
 * a small table, not an event; rows are swept once their state has expired anyway.
 */
export async function consumeCallbackState(db: Kysely<Database>, secret: string, purpose: string, username: string, state: string | undefined, now = new Date()): Promise<void> {
  const { nonce, issuedAt } = verifyCallbackState(secret, purpose, username, state, now.getTime());
  await db.deleteFrom('callback_states_used').where('expires_at', '<', now).execute();
  const claimed = await db
    .insertInto('callback_states_used')
    .values({ nonce, purpose, username_key: usernameKey(username), expires_at: new Date(issuedAt + CALLBACK_STATE_TTL_MS + CLOCK_SKEW_MS) })
    .onConflict((oc) => oc.column('nonce').doNothing())
    .returning('nonce')
    .executeTakeFirst();
  if (!claimed) throw new CallbackStateRefused('used');
}

function mac(secret: string, purpose: string, username: string, issued: string, nonce: string): string {
  return createHmac('sha256', secret).update(`callback-state\u0000${purpose}\u0000${usernameKey(username)}\u0000${issued}\u0000${nonce}`).digest('base64url');
}
