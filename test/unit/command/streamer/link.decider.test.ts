import { expect } from 'chai';
import * as link from '../../../../command/streamer/link.decider.ts';
import type { LinkCommand } from '../../../../command/streamer/link.decider.ts';
import type { WithoutMeta } from '../../../../shared/commands.ts';
import type { StreamerLinkEvent } from '../../../../shared/events/streamer.events.ts';

const at = '2026-01-01T00:00:00.000Z';
const linked = (credential_id = 'cred-1', account_id = 'wizzler'): StreamerLinkEvent => ({
  type: 'StreamerLinked',
  data: { username: 'ann', account_id, display_name: 'Wizzler', credential_id, at },
});
const relinkNeeded: StreamerLinkEvent = { type: 'StreamerRelinkNeeded', data: { username: 'ann', account_id: 'wizzler', reason: 'invalid_grant', at } };

function given(...events: StreamerLinkEvent[]) {
  const state = events.reduce(link.evolve, link.initialState());
  return {
    when: (command: WithoutMeta<LinkCommand>) => ({
      then: (expected: StreamerLinkEvent[]) => expect(link.decide(state, { ...command, meta: { username: 'ann', now: at } } as LinkCommand)).to.deep.equal(expected),
    }),
  };
}

describe('streamer link decider', () => {
  it('links, and a new link replaces the account and clears a needed relink', () => {
    given().when({ type: 'Link', accountId: 'wizzler', displayName: 'Wizzler', credentialId: 'cred-1' }).then([linked()]);
    const state = [linked(), relinkNeeded, linked('cred-2', 'other')].reduce(link.evolve, link.initialState());
    expect(state.link).to.include({ accountId: 'other', credentialId: 'cred-2', needsRelink: false });
  });

  it('marks the link needing a relink once, and only for the tokens it holds now', () => {
    given(linked()).when({ type: 'MarkRelinkNeeded', credentialId: 'cred-1', reason: 'invalid_grant' }).then([relinkNeeded]);
    given(linked(), relinkNeeded).when({ type: 'MarkRelinkNeeded', credentialId: 'cred-1', reason: 'invalid_grant' }).then([]);
    given(linked('cred-2')).when({ type: 'MarkRelinkNeeded', credentialId: 'cred-1', reason: 'invalid_grant' }).then([]);
    given().when({ type: 'MarkRelinkNeeded', credentialId: 'cred-1', reason: 'invalid_grant' }).then([]);
  });

  it('unlinks a linked account; unlinking nothing decides nothing', () => {
    given(linked()).when({ type: 'Unlink' }).then([{ type: 'StreamerUnlinked', data: { username: 'ann', account_id: 'wizzler', at } }]);
    given().when({ type: 'Unlink' }).then([]);
  });
});
