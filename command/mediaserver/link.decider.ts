import type { MediaserverAccount, MediaserverLinkEvent } from '../../shared/events/mediaserver.events.ts';
import { Conflict } from '../../shared/errors.ts';
import { assertNever } from '../../shared/never.ts';

/**
 * A user's media server link: at most one pending PIN and at most one linked account. Starting a
 * new PIN replaces a pending one; completing a PIN (re)links the account.
 */
export interface LinkState {
  username: string | null;
  pending: { pinCredentialId: string; expiresAt: string } | null;
  link: { credentialId: string; account: MediaserverAccount; linkedAt: string } | null;
}

export const initialState = (): LinkState => ({ username: null, pending: null, link: null });

export function evolve(state: LinkState, event: MediaserverLinkEvent): LinkState {
  const username = event.data.username;
  switch (event.type) {
    case 'MediaserverPinStarted':
      return { ...state, username, pending: { pinCredentialId: event.data.pin_credential_id, expiresAt: event.data.expires_at } };
    case 'MediaserverPinCancelled':
    case 'MediaserverPinExpired':
      return { ...state, username, pending: null };
    case 'MediaserverLinked':
      return { username, pending: null, link: { credentialId: event.data.credential_id, account: event.data.account, linkedAt: event.data.at } };
    case 'MediaserverUnlinked':
      return { ...state, username, link: null };
    default:
      return assertNever(event);
  }
}

interface Meta {
  username: string;
  now: string;
}

export type LinkCommand =
  | { type: 'StartPin'; pinCredentialId: string; expiresAt: string; meta: Meta }
  | { type: 'CompletePin'; pinCredentialId: string; credentialId: string; account: MediaserverAccount; meta: Meta }
  | { type: 'ExpirePin'; pinCredentialId: string; meta: Meta }
  | { type: 'CancelPin'; meta: Meta }
  /** A link made without a PIN: a home user provisioned with the token the switch gave. */
  | { type: 'Link'; credentialId: string; account: MediaserverAccount; meta: Meta }
  | { type: 'Unlink'; by: string; meta: Meta };

/** The PIN a finish call polled was cancelled, replaced or completed meanwhile. */
export class PinNoLongerPending extends Conflict {
  constructor() {
    super('The PIN is no longer pending: start again');
  }
}

export function decide(state: LinkState, command: LinkCommand): MediaserverLinkEvent[] {
  const { username, now: at } = command.meta;
  const isPending = (pinCredentialId: string) => state.pending?.pinCredentialId === pinCredentialId;
  switch (command.type) {
    case 'StartPin':
      return [{ type: 'MediaserverPinStarted', data: { username, pin_credential_id: command.pinCredentialId, expires_at: command.expiresAt, at } }];
    case 'CompletePin':
      if (!isPending(command.pinCredentialId)) throw new PinNoLongerPending();
      return [{ type: 'MediaserverLinked', data: { username, credential_id: command.credentialId, account: command.account, pin_credential_id: command.pinCredentialId, at } }];
    case 'Link':
      return [{ type: 'MediaserverLinked', data: { username, credential_id: command.credentialId, account: command.account, pin_credential_id: null, at } }];
    case 'ExpirePin':
      return isPending(command.pinCredentialId) ? [{ type: 'MediaserverPinExpired', data: { username, pin_credential_id: command.pinCredentialId, at } }] : [];
    case 'CancelPin':
      return state.pending ? [{ type: 'MediaserverPinCancelled', data: { username, pin_credential_id: state.pending.pinCredentialId, at } }] : [];
    case 'Unlink':
      return state.link ? [{ type: 'MediaserverUnlinked', data: { username, unlinked_by: command.by, at } }] : [];
    default:
      return assertNever(command);
  }
}
