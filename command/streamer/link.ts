import { createHmac } from 'node:crypto';
import { CallbackStateRefused, consumeCallbackState, issueCallbackState, verifyCallbackState } from '../../infra/auth/callback-state.ts';
import type { AppContext } from '../../infra/context.ts';
import { aggregate } from '../../infra/eventstore/aggregate.ts';
import { handleCommand } from '../../infra/eventstore/command-handler.ts';
import { log } from '../../infra/logger.ts';
import { streamerClients } from '../../infra/upstreams/streamer/client.ts';
import { StreamerGrantRefused } from '../../infra/upstreams/streamer/errors.ts';
import { Profile } from '../../infra/upstreams/streamer/schemas.ts';
import type { WithoutMeta } from '../../shared/commands.ts';
import { BadRequest, PreconditionFailed, UpstreamError } from '../../shared/errors.ts';
import type { StreamerLinkEvent } from '../../shared/events/streamer.events.ts';
import { streamerLinkStream } from '../../shared/streams.ts';
import { usernameKey } from '../../shared/usernames.ts';
import * as linkDecider from './link.decider.ts';
import type { LinkCommand, LinkState } from './link.decider.ts';
import { StreamerRelinkRequired, TOKENS_KIND, linkTokens, storedTokens } from './tokens.ts';

/** A callback state issued for another flow does not verify here. */
const STATE_PURPOSE = 'streamer-link';

export interface CallbackQuery {
  code?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
}

/**
 * The PKCE verifier of a flow, derived from its state's nonce: nothing is stored per started link,
 * and only this service (holding the signing secret) can compute it.
 */
const verifierOf = (secret: string, nonce: string) => createHmac('sha256', secret).update(`streamer-pkce\u0000${nonce}`).digest('base64url');

/** An upstream `error` value as a reason the client can show: short, plain. */
const reasonOf = (value: string) => value.toLowerCase().replace(/[^a-z0-9_]+/g, '_').slice(0, 60) || 'error';

export function streamerLink(ctx: AppContext) {
  async function load(username: string): Promise<LinkState> {
    return (await aggregate<LinkState, StreamerLinkEvent>(ctx.store, streamerLinkStream(usernameKey(username)), linkDecider.evolve, linkDecider.initialState())).state;
  }

  async function run(username: string, command: WithoutMeta<LinkCommand>, seen?: (state: LinkState) => void) {
    return handleCommand<LinkState, LinkCommand, StreamerLinkEvent>(
      ctx.store,
      streamerLinkStream(usernameKey(username)),
      linkDecider,
      (state) => {
        seen?.(state);
        return { ...command, meta: { username, now: new Date().toISOString() } } as LinkCommand;
      },
      { actor: username },
    );
  }

  const settingsUrl = (params: Record<string, string>) => {
    const url = new URL(`${ctx.config.CLIENT_URL}/settings`);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url.toString();
  };
  const failed = (reason: string) => settingsUrl({ streamer: 'error', reason });

  /** Exchanges the code, reads the account, stores the tokens and records the link. */
  async function complete(username: string, code: string, verifier: string): Promise<string> {
    const clients = streamerClients(ctx.config);
    let tokens;
    try {
      tokens = storedTokens(await clients.accounts.exchangeCode(code, verifier), undefined);
    } catch (error) {
      if (error instanceof StreamerGrantRefused) return failed(reasonOf(error.error));
      if (error instanceof UpstreamError) return failed('exchange_failed');
      throw error;
    }
    let profile: Profile;
    try {
      const once = { current: async () => tokens.access_token, renew: async () => tokens.access_token };
      profile = await clients.api(once).get('me', Profile);
    } catch (error) {
      if (error instanceof UpstreamError) return failed('profile_failed');
      throw error;
    }
    const credentialId = await ctx.auth.credentials.put(usernameKey(username), TOKENS_KIND, JSON.stringify(tokens));
    let replaced: string | undefined;
    try {
      await run(username, { type: 'Link', accountId: profile.id, displayName: profile.display_name ?? null, credentialId }, (s) => (replaced = s.link?.credentialId));
    } catch (error) {
      await ctx.auth.credentials.remove(credentialId);
      throw error;
    }
    if (replaced && replaced !== credentialId) await ctx.auth.credentials.remove(replaced);
    log.info('streamer: account linked', { username, account_id: profile.id });
    return settingsUrl({ streamer: 'linked' });
  }

  return {
    load,
    assertConfigured: () => void streamerClients(ctx.config),

    /** The accounts service's authorize page for this user: state bound to them, PKCE S256. */
    start(username: string): { url: string } {
      const { accounts } = streamerClients(ctx.config);
      const state = issueCallbackState(ctx.secrets.jwtSecret, STATE_PURPOSE, username);
      const { nonce } = verifyCallbackState(ctx.secrets.jwtSecret, STATE_PURPOSE, username, state);
      return { url: accounts.authorizeUrl(state, verifierOf(ctx.secrets.jwtSecret, nonce)) };
    },

    /** Where the browser goes next: the client's settings page, linked or with an error and its reason. */
    async callback(username: string, query: CallbackQuery): Promise<string> {
      streamerClients(ctx.config);
      if (!query.code && !query.state && !query.error) throw new BadRequest('The streamer callback carries no code, state or error');
      let nonce: string;
      try {
        nonce = verifyCallbackState(ctx.secrets.jwtSecret, STATE_PURPOSE, username, query.state).nonce;
        // Used once, whatever comes next: a denied or failed attempt cannot be replayed either.
        await consumeCallbackState(ctx.db, ctx.secrets.jwtSecret, STATE_PURPOSE, username, query.state);
      } catch (error) {
        if (error instanceof CallbackStateRefused) return failed(query.error ? reasonOf(query.error) : `state_${error.reason}`);
        throw error;
      }
      if (query.error) return failed(reasonOf(query.error));
      if (!query.code) return failed('missing_code');
      return complete(username, query.code, verifierOf(ctx.secrets.jwtSecret, nonce));
    },

    /** Drops the tokens and the identity; nothing is revoked upstream. */
    async unlink(username: string): Promise<{ unlinked: boolean }> {
      let credentialId: string | undefined;
      const handled = await run(username, { type: 'Unlink' }, (s) => (credentialId = s.link?.credentialId));
      if (handled.events.length > 0 && credentialId) await ctx.auth.credentials.remove(credentialId);
      return { unlinked: handled.events.length > 0 };
    },

    /** The linked account and its API with refreshing tokens: 412 when not linked or when it needs linking again. */
    async session(username: string) {
      const clients = streamerClients(ctx.config);
      const { link } = await load(username);
      if (!link) throw new PreconditionFailed('Streamer account not linked');
      if (link.needsRelink) throw new StreamerRelinkRequired('the streamer refused the stored authorization (invalid_grant)');
      const relinkNeeded = async (reason: string) => void (await run(username, { type: 'MarkRelinkNeeded', credentialId: link.credentialId, reason }));
      return { accountId: link.accountId, api: clients.api(linkTokens(ctx, clients.accounts, link.credentialId, relinkNeeded)) };
    },
  };
}
