import { expect } from 'chai';
import { type ApiResponse, type TestApp, startTestApp } from '../../support/api.ts';
import { ADMIN, signedInAs } from '../../support/given.ts';

/** The `media_session` Set-Cookie line of a response, split into its value and attributes. */
function sessionCookie(res: ApiResponse) {
  const line = res.headers.getSetCookie().find((l) => l.startsWith('media_session='));
  if (!line) return undefined;
  const [pair, ...attributes] = line.split(';').map((p) => p.trim());
  return { value: pair!.slice('media_session='.length), attributes: attributes.map((a) => a.toLowerCase()) };
}

describe('auth: login and logout', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  describe('POST /auth/login', () => {
    it('given an account, when it signs in with its password, then 200 with the user object', async () => {
      const { username, password } = await signedInAs(app, 'staff');
      const res = await app.client().post('/auth/login', { username, password });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ username, role: 'staff' });
      expect(res.body.preferences).to.deep.equal({ mediaserver_favorites_sync_enabled: false });
      expect(Object.keys(res.body).filter((k) => /hash|password|credential|token|secret|session/i.test(k))).to.deep.equal([]);
      expect(JSON.stringify(res.body)).not.to.include(password);
    });

    it('sets media_session HttpOnly, SameSite=Lax, Path=/, and not Secure by default', async () => {
      const res = await app.client().post('/auth/login', ADMIN);
      const cookie = sessionCookie(res)!;
      expect(cookie.value).to.match(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(cookie.attributes).to.include.members(['httponly', 'samesite=lax', 'path=/']);
      expect(cookie.attributes).not.to.include('secure');
    });

    it('the cookie it sets is a session: GET /auth/me answers the same user', async () => {
      const client = app.client();
      await client.post('/auth/login', ADMIN);
      const res = await client.get('/auth/me');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ username: 'admin', role: 'admin' });
    });

    it('takes the username without regard to case', async () => {
      const res = await app.client().post('/auth/login', { username: 'ADMIN', password: ADMIN.password });
      expect(res.status).to.equal(200);
      expect(res.body.username).to.equal('admin');
    });

    it('given a wrong password, then a generic 401 and no cookie', async () => {
      const { username } = await signedInAs(app, 'viewer');
      const res = await app.client().post('/auth/login', { username, password: 'wrong-password' });
      expect(res.status).to.equal(401);
      expect(res.body).to.have.all.keys('detail');
      expect(sessionCookie(res)).to.equal(undefined);
    });

    it('answers an unknown username exactly as a wrong password', async () => {
      const { username } = await signedInAs(app, 'viewer');
      const wrong = await app.client().post('/auth/login', { username, password: 'wrong-password-2' });
      const unknown = await app.client().post('/auth/login', { username: 'nobody-at-all', password: 'wrong-password-2' });
      expect(unknown.status).to.equal(401);
      expect(unknown.body).to.deep.equal(wrong.body);
      expect(unknown.headers.get('content-type')).to.equal(wrong.headers.get('content-type'));
    });

    it('given a stored hash that cannot be opened (SECRET_KEY changed), then the generic 401, not a 500 that would reveal the account', async () => {
      const { username, password } = await signedInAs(app, 'viewer');
      await app.ctx.db.updateTable('credentials').set({ secret: 'sealed-under-another-key' }).where('owner', '=', username).execute();
      const res = await app.client().post('/auth/login', { username, password });
      const unknown = await app.client().post('/auth/login', { username: 'nobody-at-all', password });
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(unknown.body);
    });

    it('given a body without a password, then 422 with a validation error', async () => {
      const res = await app.client().post('/auth/login', { username: 'admin' });
      expect(res.status).to.equal(422);
      expect(res.body.detail[0]).to.include({ msg: 'Field required', type: 'missing' });
      expect(res.body.detail[0].loc).to.deep.equal(['body', 'password']);
    });

    it('given a form-encoded body, then it is refused (JSON only)', async () => {
      const res = await app.client().post('/auth/login', 'username=admin&password=x', { 'content-type': 'application/x-www-form-urlencoded' });
      expect(res.status).to.equal(415);
    });

    it('given a foreign Origin, then 403 and no session', async () => {
      const res = await app.client().post('/auth/login', ADMIN, { origin: 'https://evil.example' });
      expect(res.status).to.equal(403);
      expect(sessionCookie(res)).to.equal(undefined);
    });
  });

  describe('POST /auth/logout', () => {
    it('clears the cookie', async () => {
      const client = app.client();
      await client.post('/auth/login', ADMIN);
      const res = await client.post('/auth/logout');
      expect(res.status).to.equal(200);
      const cleared = sessionCookie(res)!;
      expect(cleared.value).to.equal('');
      expect(cleared.attributes).to.include('path=/');
      expect(cleared.attributes.some((a) => a.startsWith('expires=thu, 01 jan 1970') || a === 'max-age=0')).to.equal(true);
      expect((await client.get('/auth/me')).status).to.equal(401);
    });

    it('given the old token replayed after logout, then 401', async () => {
      const { client } = await signedInAs(app, 'viewer');
      const token = client.cookie('media_session')!;
      await client.post('/auth/logout');
      const replay = app.client();
      replay.setCookie('media_session', token);
      expect((await replay.get('/auth/me')).status).to.equal(401);
    });

    it('ends the other sessions of the same user too', async () => {
      const { client, username, password } = await signedInAs(app, 'viewer');
      const other = app.client();
      await other.post('/auth/login', { username, password });
      await client.post('/auth/logout');
      expect((await other.get('/auth/me')).status).to.equal(401);
    });

    it('without a session, still answers 200 and clears the cookie', async () => {
      const res = await app.client().post('/auth/logout');
      expect(res.status).to.equal(200);
      expect(sessionCookie(res)?.value).to.equal('');
    });
  });
});

describe('auth: login with COOKIE_SECURE=true', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ COOKIE_SECURE: 'true' });
  });
  after(() => app.close());

  it('sets the session cookie Secure', async () => {
    const res = await app.client().post('/auth/login', ADMIN);
    expect(res.status).to.equal(200);
    expect(sessionCookie(res)!.attributes).to.include.members(['secure', 'httponly', 'samesite=lax', 'path=/']);
  });

  it('clears it Secure too', async () => {
    const res = await app.client().post('/auth/logout');
    expect(sessionCookie(res)!.attributes).to.include('secure');
  });
});
