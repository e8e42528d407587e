import { expect } from 'chai';
import type { WithoutMeta } from '../../../../shared/commands.ts';
import * as link from '../../../../command/mediaserver/link.decider.ts';
import { type LinkCommand, PinNoLongerPending } from '../../../../command/mediaserver/link.decider.ts';
import type { MediaserverLinkEvent } from '../../../../shared/events/mediaserver.events.ts';

const at = '2026-01-01T00:00:00.000Z';
const meta = { username: 'ann', now: at };
const account = { id: 7, uuid: 'u7', username: 'ann@example.com', title: 'Ann', thumb: null };

function given(...events: MediaserverLinkEvent[]) {
  const state = events.reduce(link.evolve, link.initialState());
  return {
    when: (command: WithoutMeta<LinkCommand>) => ({
      then: (expected: MediaserverLinkEvent[] | (new (...a: any[]) => Error)) => {
        const run = () => link.decide(state, { ...command, meta } as LinkCommand);
        if (typeof expected === 'function') expect(run).to.throw(expected);
        else expect(run()).to.deep.equal(expected);
      },
    }),
  };
}

const started = (pin: string): MediaserverLinkEvent => ({ type: 'MediaserverPinStarted', data: { username: 'ann', pin_credential_id: pin, expires_at: '2026-01-01T00:15:00.000Z', at } });
const linked: MediaserverLinkEvent = { type: 'MediaserverLinked', data: { username: 'ann', credential_id: 'tok1', account, pin_credential_id: 'p1', at } };

describe('mediaserver link decider', () => {
  it('starts a PIN whatever came before', () => {
    given().when({ type: 'StartPin', pinCredentialId: 'p1', expiresAt: '2026-01-01T00:15:00.000Z' }).then([started('p1')]);
    given(started('p0'), linked).when({ type: 'StartPin', pinCredentialId: 'p1', expiresAt: '2026-01-01T00:15:00.000Z' }).then([started('p1')]);
  });

  it('completes only the pending PIN', () => {
    given(started('p1')).when({ type: 'CompletePin', pinCredentialId: 'p1', credentialId: 'tok1', account }).then([linked]);
    given(started('p2')).when({ type: 'CompletePin', pinCredentialId: 'p1', credentialId: 'tok1', account }).then(PinNoLongerPending);
    given(started('p1'), linked).when({ type: 'CompletePin', pinCredentialId: 'p1', credentialId: 'tok2', account }).then(PinNoLongerPending);
  });

  it('links directly, without a PIN', () => {
    given().when({ type: 'Link', credentialId: 'tok9', account }).then([{ type: 'MediaserverLinked', data: { username: 'ann', credential_id: 'tok9', account, pin_credential_id: null, at } }]);
  });

  it('expires only the PIN that is still pending', () => {
    given(started('p1')).when({ type: 'ExpirePin', pinCredentialId: 'p1' }).then([{ type: 'MediaserverPinExpired', data: { username: 'ann', pin_credential_id: 'p1', at } }]);
    given(started('p2')).when({ type: 'ExpirePin', pinCredentialId: 'p1' }).then([]);
  });

  it('cancels a pending PIN, and nothing otherwise; the link stays', () => {
    given(started('p1')).when({ type: 'CancelPin' }).then([{ type: 'MediaserverPinCancelled', data: { username: 'ann', pin_credential_id: 'p1', at } }]);
    given(started('p1'), linked).when({ type: 'CancelPin' }).then([]);
    const state = [started('p1'), linked, started('p2'), { type: 'MediaserverPinCancelled', data: { username: 'ann', pin_credential_id: 'p2', at } } as MediaserverLinkEvent].reduce(link.evolve, link.initialState());
    expect(state.link?.credentialId).to.equal('tok1');
    expect(state.pending).to.equal(null);
  });

  it('unlinks a linked account once', () => {
    given(started('p1'), linked).when({ type: 'Unlink', by: 'admin' }).then([{ type: 'MediaserverUnlinked', data: { username: 'ann', unlinked_by: 'admin', at } }]);
    given().when({ type: 'Unlink', by: 'ann' }).then([]);
  });
});
