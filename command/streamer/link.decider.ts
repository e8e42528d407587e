import type { StreamerLinkEvent } from '../../shared/events/streamer.events.ts';
import { assertNever } from '../../shared/never.ts';

/** A user's streamer link: at most one account, usable or waiting for the user to link again. */
export interface LinkState {
  link: { accountId: string; displayName: string | null; credentialId: string; linkedAt: string; needsRelink: boolean } | null;
}

export const initialState = (): LinkState => ({ link: null });

export function evolve(state: LinkState, event: StreamerLinkEvent): LinkState {
  switch (event.type) {
    case 'StreamerLinked':
      return { link: { accountId: event.data.account_id, displayName: event.data.display_name, credentialId: event.data.credential_id, linkedAt: event.data.at, needsRelink: false } };
    case 'StreamerRelinkNeeded':
      return state.link ? { link: { ...state.link, needsRelink: true } } : state;
    case 'StreamerUnlinked':
      return { link: null };
    default:
      return assertNever(event);
  }
}

interface Meta {
  username: string;
  now: string;
}

export type LinkCommand =
  | { type: 'Link'; accountId: string; displayName: string | null; credentialId: string; meta: Meta }
  | { type: 'MarkRelinkNeeded'; credentialId: string; reason: string; meta: Meta }
  | { type: 'Unlink'; meta: Meta };

export function decide(state: LinkState, command: LinkCommand): StreamerLinkEvent[] {
  const { username, now: at } = command.meta;
  switch (command.type) {
    case 'Link':
      return [{ type: 'StreamerLinked', data: { username, account_id: command.accountId, display_name: command.displayName, credential_id: command.credentialId, at } }];
    case 'MarkRelinkNeeded': {
      // A refusal of tokens a newer link already replaced says nothing about the link now.
      const link = state.link;
      if (!link || link.credentialId !== command.credentialId || link.needsRelink) return [];
      return [{ type: 'StreamerRelinkNeeded', data: { username, account_id: link.accountId, reason: command.reason, at } }];
    }
    case 'Unlink':
      return state.link ? [{ type: 'StreamerUnlinked', data: { username, account_id: state.link.accountId, at } }] : [];
    default:
      return assertNever(command);
  }
}
