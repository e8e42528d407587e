import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { createSessionTokens } from '../../../../infra/auth/session-tokens.ts';

const secret = 'a-secret-for-tests-that-is-long-enough';
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('session tokens (JWT)', () => {
  const tokens = createSessionTokens(secret);

  it('verifies the claims of a token it issued', () => {
    expect(tokens.verify(tokens.issue({ sub: 'alice', sv: 3 }))).to.deep.equal({ sub: 'alice', sv: 3 });
  });

  it('issues HS256 tokens that expire', () => {
    const decoded = jwt.decode(tokens.issue({ sub: 'alice', sv: 0 }), { complete: true })!;
    expect(decoded.header.alg).to.equal('HS256');
    expect((decoded.payload as jwt.JwtPayload).exp).to.be.a('number');
  });

  it('refuses an unsigned token (alg: none)', () => {
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'alice', sv: 0, iat: now, exp: now + 3600 })}.`;
    expect(tokens.verify(unsigned)).to.equal(null);
  });

  it('refuses a token signed with another key', () => {
    expect(tokens.verify(jwt.sign({ sub: 'alice', sv: 0 }, 'another-secret-entirely-different', { algorithm: 'HS256', expiresIn: 60 }))).to.equal(null);
  });

  it('refuses a token signed with the same key under another algorithm', () => {
    expect(tokens.verify(jwt.sign({ sub: 'alice', sv: 0 }, secret, { algorithm: 'HS512', expiresIn: 60 }))).to.equal(null);
  });

  it('refuses an expired token', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(tokens.verify(jwt.sign({ sub: 'alice', sv: 0, iat: now - 7200, exp: now - 3600 }, secret, { algorithm: 'HS256' }))).to.equal(null);
  });

  it('refuses a token it verified before, once the token has expired', () => {
    const now = Math.floor(Date.now() / 1000);
    const token = jwt.sign({ sub: 'alice', sv: 0, iat: now, exp: now + 60 }, secret, { algorithm: 'HS256' });
    expect(tokens.verify(token)).to.deep.equal({ sub: 'alice', sv: 0 });
    const realNow = Date.now;
    Date.now = () => (now + 60) * 1000;
    try {
      expect(tokens.verify(token)).to.equal(null);
    } finally {
      Date.now = realNow;
    }
  });

  it('refuses a token without an expiry', () => {
    expect(tokens.verify(jwt.sign({ sub: 'alice', sv: 0 }, secret, { algorithm: 'HS256' }))).to.equal(null);
  });

  it('refuses a token whose payload was altered', () => {
    const [header, , signature] = tokens.issue({ sub: 'alice', sv: 0 }).split('.');
    expect(tokens.verify(`${header}.${b64({ sub: 'root', sv: 0, exp: 9999999999 })}.${signature}`)).to.equal(null);
  });

  it('refuses a token without the session claims', () => {
    expect(tokens.verify(jwt.sign({ sub: 'alice' }, secret, { algorithm: 'HS256', expiresIn: 60 }))).to.equal(null);
    expect(tokens.verify('not a token')).to.equal(null);
  });
});
