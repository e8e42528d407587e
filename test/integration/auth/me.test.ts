import { expect } from 'chai';
import { type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';

/** Keys a user object must never carry, at any depth. */
const SECRET_KEY = /hash|password|credential|token|secret|session/i;
function keysOf(value: unknown): string[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]);
}

describe('auth: the signed-in user (/auth/me)', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  describe('GET /auth/me', () => {
    it('answers the user object: username, role, preferences and the scrobbler username', async () => {
      const { client, username } = await signedInAs(app, 'viewer');
      const res = await client.get('/auth/me');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ username, role: 'viewer', scrobbler_username: null });
      expect(res.body.preferences).to.deep.equal({ mediaserver_favorites_sync_enabled: false });
    });

    it('never carries a hash, credential or token', async () => {
      const { client, password } = await signedInAs(app, 'admin');
      const res = await client.get('/auth/me');
      expect(keysOf(res.body).filter((k) => SECRET_KEY.test(k))).to.deep.equal([]);
      expect(JSON.stringify(res.body)).not.to.include(password).and.not.to.include('scrypt$');
    });

    it('without a session, then 401', async () => {
      expect((await app.client().get('/auth/me')).status).to.equal(401);
    });
  });

  describe('PATCH /auth/me', () => {
    it('changes profile fields and preferences, and they stay changed', async () => {
      const { client, username } = await signedInAs(app, 'viewer');
      const res = await client.patch('/auth/me', { display_name: 'Vera Viewer', email: 'vera@example.test', preferences: { mediaserver_favorites_sync_enabled: true } });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ username, display_name: 'Vera Viewer', email: 'vera@example.test' });
      expect(res.body.preferences).to.deep.equal({ mediaserver_favorites_sync_enabled: true });
      const again = await client.get('/auth/me');
      expect(again.body).to.include({ display_name: 'Vera Viewer', email: 'vera@example.test' });
      expect(again.body.preferences.mediaserver_favorites_sync_enabled).to.equal(true);
    });

    it('leaves the fields it is not given alone', async () => {
      const { client } = await signedInAs(app, 'viewer');
      await client.patch('/auth/me', { display_name: 'Kept', preferences: { mediaserver_favorites_sync_enabled: true } });
      const res = await client.patch('/auth/me', { email: 'only-email@example.test' });
      expect(res.body).to.include({ display_name: 'Kept', email: 'only-email@example.test' });
      expect(res.body.preferences.mediaserver_favorites_sync_enabled).to.equal(true);
    });

    it('given an empty body, answers the unchanged user', async () => {
      const { client, username } = await signedInAs(app, 'staff');
      const res = await client.patch('/auth/me', {});
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ username, role: 'staff' });
    });

    it('refuses a change of the caller\'s own role, and the role stays', async () => {
      const { client } = await signedInAs(app, 'viewer');
      const res = await client.patch('/auth/me', { role: 'admin' });
      expect(res.status).to.be.oneOf([403, 422]);
      const me = await client.get('/auth/me');
      expect(me.status).to.equal(200);
      expect(me.body.role).to.equal('viewer');
      expect((await client.get('/auth/users/')).status).to.equal(403);
    });

    it('given a field of the wrong type, then 422', async () => {
      const { client } = await signedInAs(app, 'viewer');
      const res = await client.patch('/auth/me', { preferences: { mediaserver_favorites_sync_enabled: 'yes' } });
      expect(res.status).to.equal(422);
      expect(res.body.detail[0].loc).to.deep.equal(['body', 'preferences', 'mediaserver_favorites_sync_enabled']);
    });

    it('without a session, then 401', async () => {
      expect((await app.client().patch('/auth/me', { display_name: 'x' })).status).to.equal(401);
    });
  });

  describe('POST /auth/me/password', () => {
    it('given a wrong current password, then 400 and the password is unchanged', async () => {
      const { client, username, password } = await signedInAs(app, 'viewer');
      const res = await client.post('/auth/me/password', { current_password: 'not-it', new_password: 'brand-new-pw' });
      expect(res.status).to.equal(400);
      expect(res.body.detail).to.be.a('string');
      expect((await client.get('/auth/me')).status).to.equal(200);
      expect((await app.client().post('/auth/login', { username, password })).status).to.equal(200);
      expect((await app.client().post('/auth/login', { username, password: 'brand-new-pw' })).status).to.equal(401);
    });

    it("given the current password, ends the user's other sessions while the caller's re-issued cookie keeps working", async () => {
      const { client, username, password } = await signedInAs(app, 'viewer');
      const other = app.client();
      await other.post('/auth/login', { username, password });
      const before = client.cookie('media_session');
      const res = await client.post('/auth/me/password', { current_password: password, new_password: 'changed-password' });
      expect(res.status).to.equal(200);
      expect(client.cookie('media_session')).to.be.a('string').and.not.equal(before);
      expect((await client.get('/auth/me')).status).to.equal(200);
      expect((await other.get('/auth/me')).status).to.equal(401);
      const replay = app.client();
      replay.setCookie('media_session', before!);
      expect((await replay.get('/auth/me')).status).to.equal(401);
    });

    it('then the new password signs in and the old one does not', async () => {
      const { client, username, password } = await signedInAs(app, 'staff');
      await client.post('/auth/me/password', { current_password: password, new_password: 'next-password' });
      expect((await app.client().post('/auth/login', { username, password: 'next-password' })).status).to.equal(200);
      expect((await app.client().post('/auth/login', { username, password })).status).to.equal(401);
    });

    it('given a too short new password, then 422', async () => {
      const { client, password } = await signedInAs(app, 'viewer');
      const res = await client.post('/auth/me/password', { current_password: password, new_password: 'x' });
      expect(res.status).to.equal(422);
      expect(res.body.detail[0].loc).to.deep.equal(['body', 'new_password']);
    });

    it('without a session, then 401', async () => {
      expect((await app.client().post('/auth/me/password', { current_password: 'a', new_password: 'bbbb' })).status).to.equal(401);
    });
  });
});
