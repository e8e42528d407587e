import type { AppContext } from '../../context.ts';
import { NotFound } from '../../../shared/errors.ts';
import { scrobblerClient } from './client.ts';
import { ScrobblerFailure } from './errors.ts';
import { type CachedCall, readThrough } from './proxy-cache.ts';

/** 17: the user hides their listening; for a reader that is "nothing to show", not a fault. */
const LOGIN_REQUIRED = 17;

/**
 * One unsigned read through the cache, its answer kept in the scrobbler's own shape. A miss
 * (error 6) stays the 404 the client raised, a private profile becomes one too, and any other
 * failure is the client's 502 whose message names the method and code, never a key.
 */
export async function liveRead(ctx: Pick<AppContext, 'db' | 'config'>, call: CachedCall): Promise<Record<string, unknown>> {
  const client = scrobblerClient(ctx.config);
  client.assertConfigured();
  try {
    const answer = await readThrough(ctx.db, call, () => client.call(call.method, call.params));
    if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) throw new ScrobblerFailure(null, `${call.method} answered an unexpected shape`);
    return answer as Record<string, unknown>;
  } catch (error) {
    if (error instanceof ScrobblerFailure && error.code === LOGIN_REQUIRED) throw new NotFound(`scrobbler: ${call.method}: this user's listening is private`);
    throw error;
  }
}
