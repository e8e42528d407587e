import { expect } from 'chai';
import { CALLBACK_STATE_TTL_MS, CallbackStateRefused, issueCallbackState, verifyCallbackState } from '../../../../infra/auth/callback-state.ts';

describe('callback state: signed, bound to user and purpose, ten minutes', () => {
  const secret = 'test-secret';
  const t0 = Date.UTC(2026, 0, 1);
  const refusal = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      expect(error).to.be.instanceOf(CallbackStateRefused).and.include({ status: 400 });
      return (error as CallbackStateRefused).reason;
    }
    throw new Error('expected a refusal');
  };

  it('given a state issued to a user, when that user returns within ten minutes, then it verifies whatever the name’s case', () => {
    const state = issueCallbackState(secret, 'scrobbler-link', 'Ann', t0);
    expect(verifyCallbackState(secret, 'scrobbler-link', 'ann', state, t0 + CALLBACK_STATE_TTL_MS).issuedAt).to.equal(t0);
  });

  it('given two starts, then each state carries its own nonce', () => {
    const a = verifyCallbackState(secret, 'p', 'ann', issueCallbackState(secret, 'p', 'ann', t0), t0);
    const b = verifyCallbackState(secret, 'p', 'ann', issueCallbackState(secret, 'p', 'ann', t0), t0);
    expect(a.nonce).not.to.equal(b.nonce);
  });

  it('refuses a missing state, another user, another purpose or secret, tampering, and an old state', () => {
    const state = issueCallbackState(secret, 'scrobbler-link', 'ann', t0);
    const [issued, nonce, sig] = state.split('.');
    expect(refusal(() => verifyCallbackState(secret, 'scrobbler-link', 'ann', undefined, t0))).to.equal('missing');
    expect(refusal(() => verifyCallbackState(secret, 'scrobbler-link', 'bob', state, t0))).to.equal('invalid');
    expect(refusal(() => verifyCallbackState(secret, 'streamer-link', 'ann', state, t0))).to.equal('invalid');
    expect(refusal(() => verifyCallbackState('other-secret', 'scrobbler-link', 'ann', state, t0))).to.equal('invalid');
    expect(refusal(() => verifyCallbackState(secret, 'scrobbler-link', 'ann', `${(t0 + 1).toString(36)}.${nonce}.${sig}`, t0))).to.equal('invalid');
    expect(refusal(() => verifyCallbackState(secret, 'scrobbler-link', 'ann', `${issued}.${nonce}x.${sig}`, t0))).to.equal('invalid');
    expect(refusal(() => verifyCallbackState(secret, 'scrobbler-link', 'ann', `${state}.extra`, t0))).to.equal('invalid');
    expect(refusal(() => verifyCallbackState(secret, 'scrobbler-link', 'ann', 'garbage', t0))).to.equal('invalid');
    expect(refusal(() => verifyCallbackState(secret, 'scrobbler-link', 'ann', state, t0 + CALLBACK_STATE_TTL_MS + 1))).to.equal('expired');
    expect(refusal(() => verifyCallbackState(secret, 'scrobbler-link', 'ann', state, t0 - 5 * 60_000))).to.equal('expired');
  });
});
