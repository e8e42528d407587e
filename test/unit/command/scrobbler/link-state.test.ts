import { expect } from 'chai';
import { issueLinkState, linkStateValid } from '../../../../command/scrobbler/link-state.ts';

describe('scrobbler link state', () => {
  const secret = 'test-secret';
  const t0 = Date.UTC(2026, 0, 1);

  it('is valid for the user it was issued to, whatever the case of the name, within the hour', () => {
    const state = issueLinkState(secret, 'Ann', t0);
    expect(linkStateValid(secret, 'Ann', state, t0 + 1000)).to.equal(true);
    expect(linkStateValid(secret, 'ann', state, t0 + 59 * 60_000)).to.equal(true);
  });

  it('is refused for another user, another secret, after an hour, or when tampered with', () => {
    const state = issueLinkState(secret, 'ann', t0);
    expect(linkStateValid(secret, 'bob', state, t0)).to.equal(false);
    expect(linkStateValid('other-secret', 'ann', state, t0)).to.equal(false);
    expect(linkStateValid(secret, 'ann', state, t0 + 61 * 60_000)).to.equal(false);
    const [issued, sig] = state.split('.');
    expect(linkStateValid(secret, 'ann', `${(Number.parseInt(issued!, 36) + 1).toString(36)}.${sig}`, t0)).to.equal(false);
    expect(linkStateValid(secret, 'ann', 'garbage', t0)).to.equal(false);
  });
});
