import type { AppContext } from '../../infra/context.ts';
import { aggregate } from '../../infra/eventstore/aggregate.ts';
import { handleCommand } from '../../infra/eventstore/command-handler.ts';
import { log } from '../../infra/logger.ts';
import { mediaserverClients } from '../../infra/upstreams/mediaserver/client.ts';
import { pinAuthUrl } from '../../infra/upstreams/mediaserver/plex.ts';
import type { AccountUser } from '../../infra/upstreams/mediaserver/schemas.ts';
import type { WithoutMeta } from '../../shared/commands.ts';
import { PreconditionFailed, UpstreamNotFound } from '../../shared/errors.ts';
import type { MediaserverAccount, MediaserverLinkEvent } from '../../shared/events/mediaserver.events.ts';
import type { LinkView } from '../../shared/mediaserver.ts';
import { mediaserverLinkStream } from '../../shared/streams.ts';
import { usernameKey } from '../../shared/usernames.ts';
import * as linkDecider from './link.decider.ts';
import { type LinkCommand, type LinkState, PinNoLongerPending } from './link.decider.ts';

export const PIN_KIND = 'mediaserver_pin';
export const TOKEN_KIND = 'mediaserver_token';
const EXPIRED = 'The PIN expired before it was linked: start again';

export type FinishResult =
  | { status: 'pending'; expires_at: string }
  | { status: 'completed'; link: LinkView }
  | { status: 'expired'; error: string }
  | { status: 'no_pending_pin' };

export const linkView = (link: NonNullable<LinkState['link']>): LinkView => ({
  account_id: link.account.id,
  account_uuid: link.account.uuid,
  account_username: link.account.username,
  account_title: link.account.title,
  thumb: link.account.thumb,
  linked_at: link.linkedAt,
});

const accountOf = (user: AccountUser): MediaserverAccount => ({
  id: user.id,
  uuid: user.uuid,
  username: user.username ?? null,
  title: user.title ?? null,
  thumb: user.thumb ?? null,
});

/**
 * The PIN flow and the link's life. Secrets go to the credentials store before the event that
 * refers to them; whatever a command replaced or refused is dropped from it afterwards.
 */
export function mediaserverLink(ctx: AppContext) {
  const credentials = ctx.auth.credentials;
  const clients = mediaserverClients(ctx);

  async function load(username: string): Promise<LinkState> {
    return (await aggregate<LinkState, MediaserverLinkEvent>(ctx.store, mediaserverLinkStream(usernameKey(username)), linkDecider.evolve, linkDecider.initialState())).state;
  }

  /** Runs a command; `seen` gets the state it was decided on (the last attempt's). */
  async function run(username: string, command: WithoutMeta<LinkCommand>, actor: string, seen?: (state: LinkState) => void) {
    const meta = { username, now: new Date().toISOString() };
    const handled = await handleCommand<LinkState, LinkCommand, MediaserverLinkEvent>(
      ctx.store,
      mediaserverLinkStream(usernameKey(username)),
      linkDecider,
      (state) => {
        seen?.(state);
        return { ...command, meta } as LinkCommand;
      },
      { actor },
    );
    return handled;
  }

  async function drop(credentialId: string | null | undefined): Promise<void> {
    if (credentialId) await credentials.remove(credentialId);
  }

  async function expire(username: string, pinCredentialId: string): Promise<FinishResult> {
    await run(username, { type: 'ExpirePin', pinCredentialId }, username);
    await drop(pinCredentialId);
    return { status: 'expired', error: EXPIRED };
  }

  async function complete(username: string, pinCredentialId: string, token: string): Promise<FinishResult> {
    const account = accountOf(await clients.account.user(token));
    const credentialId = await credentials.put(usernameKey(username), TOKEN_KIND, token);
    let replaced: string | undefined;
    try {
      await run(username, { type: 'CompletePin', pinCredentialId, credentialId, account }, username, (s) => (replaced = s.link?.credentialId));
    } catch (error) {
      await drop(credentialId);
      if (!(error instanceof PinNoLongerPending)) throw error;
      // A concurrent finish completed it first, or the user cancelled meanwhile.
      const now = await load(username);
      return now.link ? { status: 'completed', link: linkView(now.link) } : { status: 'no_pending_pin' };
    }
    await drop(pinCredentialId);
    if (replaced !== credentialId) await drop(replaced);
    const state = await load(username);
    return { status: 'completed', link: linkView(state.link!) };
  }

  return {
    load,

    async start(username: string) {
      const pin = await clients.account.createPin();
      const lifetime = pin.expiresIn ?? 900;
      // Our own clock decides expiry: the account service's clock may differ from ours.
      const expiresAt = new Date(Date.now() + lifetime * 1000).toISOString();
      const pinCredentialId = await credentials.put(usernameKey(username), PIN_KIND, JSON.stringify({ id: pin.id, code: pin.code }));
      let replaced: string | undefined;
      await run(username, { type: 'StartPin', pinCredentialId, expiresAt }, username, (s) => (replaced = s.pending?.pinCredentialId));
      await drop(replaced);
      return { code: pin.code, auth_url: pinAuthUrl(ctx.config.MEDIASERVER_ACCOUNT_URL, clients.clientId, pin.code), expires_at: expiresAt, expires_in: lifetime };
    },

    /** One poll of the pending PIN, at most. */
    async finish(username: string): Promise<FinishResult> {
      const { pending } = await load(username);
      if (!pending) return { status: 'no_pending_pin' };
      if (Date.now() >= Date.parse(pending.expiresAt)) return expire(username, pending.pinCredentialId);
      const stored = await credentials.get(pending.pinCredentialId);
      if (!stored) return expire(username, pending.pinCredentialId);
      const { id } = JSON.parse(stored) as { id: number };
      let token: string | null | undefined;
      try {
        token = (await clients.account.pollPin(id)).authToken;
      } catch (error) {
        if (error instanceof UpstreamNotFound) return expire(username, pending.pinCredentialId);
        throw error;
      }
      if (!token) return { status: 'pending', expires_at: pending.expiresAt };
      return complete(username, pending.pinCredentialId, token);
    },

    async cancel(username: string): Promise<{ cancelled: boolean }> {
      let pin: string | undefined;
      const handled = await run(username, { type: 'CancelPin' }, username, (s) => (pin = s.pending?.pinCredentialId));
      if (handled.events.length > 0) await drop(pin);
      return { cancelled: handled.events.length > 0 };
    },

    /** Links an account whose token is already known (a provisioned home user). */
    async linkWithToken(username: string, token: string, user: AccountUser, actor: string): Promise<void> {
      const credentialId = await credentials.put(usernameKey(username), TOKEN_KIND, token);
      let replaced: string | undefined;
      try {
        await run(username, { type: 'Link', credentialId, account: accountOf(user) }, actor, (s) => (replaced = s.link?.credentialId));
      } catch (error) {
        await drop(credentialId);
        throw error;
      }
      if (replaced !== credentialId) await drop(replaced);
    },

    async unlink(username: string, by: string): Promise<{ unlinked: boolean }> {
      let credentialId: string | undefined;
      const handled = await run(username, { type: 'Unlink', by }, by, (s) => (credentialId = s.link?.credentialId));
      if (handled.events.length > 0) await drop(credentialId);
      if (handled.events.length > 0) log.info('mediaserver: account unlinked', { username, by });
      return { unlinked: handled.events.length > 0 };
    },

    /** The user's own token, for calls made on their behalf; 412 when they have not linked. */
    async userToken(username: string): Promise<string> {
      const { link } = await load(username);
      const token = link ? await credentials.get(link.credentialId) : undefined;
      if (!token) throw new PreconditionFailed('Media server account not linked');
      return token;
    },
  };
}
