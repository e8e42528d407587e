import type { AppContext } from '../../infra/context.ts';
import type { AccessTokens } from '../../infra/upstreams/streamer/api.ts';
import type { AccountsClient } from '../../infra/upstreams/streamer/accounts.ts';
import { StreamerGrantRefused } from '../../infra/upstreams/streamer/errors.ts';
import type { TokenAnswer } from '../../infra/upstreams/streamer/schemas.ts';
import { PreconditionFailed } from '../../shared/errors.ts';

/** What the credentials row of a link holds, sealed. */
export interface StoredTokens {
  access_token: string;
  refresh_token: string;
  /** Epoch milliseconds. */
  expires_at: number;
}

export const TOKENS_KIND = 'streamer_tokens';
/** Refresh this long before the access token's end, so that a page in flight does not meet it. */
const EARLY_MS = 60_000;

export const storedTokens = (answer: TokenAnswer, previousRefresh: string | undefined, nowMs = Date.now()): StoredTokens => ({
  access_token: answer.access_token,
  // A refresh answer without a refresh token keeps the one that was used; a rotated one replaces it.
  refresh_token: answer.refresh_token ?? previousRefresh ?? '',
  expires_at: nowMs + answer.expires_in * 1000,
});

/** The stored authorization was refused or cannot be read: the link needs the user again. */
export class StreamerRelinkRequired extends PreconditionFailed {
  constructor(reason: string) {
    super(`Streamer account needs to be linked again: ${reason}`);
  }
}

/** Renewals per credential in this process: two pages refreshing at once use one refresh token once. */
const renewing = new Map<string, Promise<string>>();

/**
 * A link's access token, refreshed before it expires and after a 401; a rotated refresh token is
 * written back over the same credential. `invalid_grant` marks the link `needs_relink`.
 */
export function linkTokens(ctx: AppContext, accounts: AccountsClient, credentialId: string, relinkNeeded: (reason: string) => Promise<void>): AccessTokens {
  async function read(): Promise<StoredTokens> {
    const sealed = await ctx.auth.credentials.get(credentialId);
    if (!sealed) throw new StreamerRelinkRequired('the stored authorization cannot be read');
    return JSON.parse(sealed) as StoredTokens;
  }

  async function refresh(): Promise<string> {
    const stored = await read();
    let answer: TokenAnswer;
    try {
      answer = await accounts.refresh(stored.refresh_token);
    } catch (error) {
      if (error instanceof StreamerGrantRefused && error.error === 'invalid_grant') {
        await relinkNeeded('invalid_grant');
        throw new StreamerRelinkRequired('the streamer refused the stored authorization (invalid_grant)');
      }
      throw error;
    }
    const next = storedTokens(answer, stored.refresh_token);
    await ctx.auth.credentials.replace(credentialId, JSON.stringify(next));
    return next.access_token;
  }

  function renew(): Promise<string> {
    let running = renewing.get(credentialId);
    if (!running) {
      running = refresh().finally(() => renewing.delete(credentialId));
      renewing.set(credentialId, running);
    }
    return running;
  }

  return {
    async current() {
      const stored = await read();
      return stored.expires_at - EARLY_MS > Date.now() ? stored.access_token : renew();
    },
    renew,
  };
}
