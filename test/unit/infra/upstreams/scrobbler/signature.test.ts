import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { apiSignature, signed } from '../../../../../infra/upstreams/scrobbler/signature.ts';

const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');

describe('scrobbler api_sig', () => {
  it('hashes the parameters sorted by name, as name then value, followed by the secret', () => {
    const sig = apiSignature({ token: 't0k', method: 'auth.getSession', api_key: 'k3y' }, 's3cret');
    expect(sig).to.equal(md5('api_keyk3ymethodauth.getSessiontokent0ks3cret'));
  });

  it('leaves format and callback out of the signature', () => {
    const base = { method: 'track.love', api_key: 'k', sk: 'session', artist: 'Cher', track: 'Believe' };
    expect(apiSignature({ ...base, format: 'json', callback: 'cb' }, 'x')).to.equal(apiSignature(base, 'x'));
  });

  it('hashes non-ASCII values as UTF-8', () => {
    expect(apiSignature({ artist: 'Sigur Rós' }, 's')).to.equal(md5('artistSigur Róss'));
  });

  it('adds api_sig and keeps every parameter', () => {
    const params = signed({ method: 'auth.getSession', token: 'a' }, 'b');
    expect(params).to.include({ method: 'auth.getSession', token: 'a' });
    expect(params.api_sig).to.match(/^[0-9a-f]{32}$/);
  });
});
