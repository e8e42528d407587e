import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('auth: session tokens presented to the API', () => {
  let app: TestApp;
  let viewer: { client: ApiClient; username: string };
  before(async () => {
    app = await startTestApp();
    viewer = await signedInAs(app, 'viewer');
  });
  after(() => app.close());

  /** A client whose media_session cookie is exactly `token`. */
  const withToken = (token: string) => {
    const client = app.client();
    client.setCookie('media_session', token);
    return client;
  };
  const sign = (claims: object, secret = app.ctx.secrets.jwtSecret, options: jwt.SignOptions = { algorithm: 'HS256', expiresIn: 3600 }) =>
    jwt.sign(claims, secret, options);
  /** The session version the viewer's live cookie carries. */
  const liveClaims = () => jwt.decode(viewer.client.cookie('media_session')!) as { sub: string; sv: number };

  it('given a token signed with the service key and current claims, then the session works (control)', async () => {
    const { sub, sv } = liveClaims();
    const res = await withToken(sign({ sub, sv })).get('/auth/me');
    expect(res.status).to.equal(200);
    expect(res.body.username).to.equal(viewer.username);
  });

  it('given an expired token, then 401', async () => {
    const { sub, sv } = liveClaims();
    const expired = sign({ sub, sv, iat: nowSeconds() - 7200, exp: nowSeconds() - 60 }, undefined, { algorithm: 'HS256' });
    expect((await withToken(expired).get('/auth/me')).status).to.equal(401);
  });

  it('given an unsigned token (alg: none), then 401', async () => {
    const { sub, sv } = liveClaims();
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub, sv, iat: nowSeconds(), exp: nowSeconds() + 3600 })}.`;
    expect((await withToken(unsigned).get('/auth/me')).status).to.equal(401);
  });

  it('given an unsigned token naming the admin, then 401 on an admin route', async () => {
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: 'admin', sv: 0, iat: nowSeconds(), exp: nowSeconds() + 3600 })}.`;
    expect((await withToken(unsigned).get('/auth/users/')).status).to.equal(401);
  });

  it('given a token signed with another key, then 401', async () => {
    const { sub, sv } = liveClaims();
    expect((await withToken(sign({ sub, sv }, 'some-other-signing-key')).get('/auth/me')).status).to.equal(401);
  });

  it('given a token signed with the service key under HS512, then 401', async () => {
    const { sub, sv } = liveClaims();
    expect((await withToken(sign({ sub, sv }, undefined, { algorithm: 'HS512', expiresIn: 3600 })).get('/auth/me')).status).to.equal(401);
  });

  it('given a token from before a session-ending change (stale session version), then 401', async () => {
    const { sub, sv } = liveClaims();
    expect((await withToken(sign({ sub, sv: sv - 1 })).get('/auth/me')).status).to.equal(401);
  });

  it('given a validly signed token naming a user that never existed, then 401', async () => {
    expect((await withToken(sign({ sub: 'ghost', sv: 0 })).get('/auth/me')).status).to.equal(401);
  });

  it('given a validly signed token naming a deleted user, then 401', async () => {
    const { client, username } = await signedInAs(app, 'staff');
    const token = client.cookie('media_session')!;
    const { sub } = jwt.decode(token) as { sub: string };
    expect((await (await signedInAdmin(app)).delete(`/auth/users/${username}`)).status).to.equal(200);
    expect((await withToken(token).get('/auth/me')).status).to.equal(401);
    for (const sv of [0, 1, 2, 3]) expect((await withToken(sign({ sub, sv })).get('/auth/me')).status).to.equal(401);
  });

  it('given a cookie that is not a JWT at all, then 401', async () => {
    expect((await withToken('not-a-token').get('/auth/me')).status).to.equal(401);
    expect((await withToken('').get('/auth/me')).status).to.equal(401);
  });

  it('answers 401 with a JSON detail, never a stack trace', async () => {
    const res = await withToken('a.b.c').get('/auth/me');
    expect(res.status).to.equal(401);
    expect(res.body).to.have.all.keys('detail');
    expect(res.body.detail).to.be.a('string').and.not.match(/at .+\.ts/);
  });
});
