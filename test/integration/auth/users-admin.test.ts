import { expect } from 'chai';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';

const SECRET_KEY = /hash|password|credential|token|secret|session/i;
function keysOf(value: unknown): string[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]);
}

describe('auth: user administration (/auth/users/)', () => {
  let app: TestApp;
  let admin: ApiClient;
  before(async () => {
    app = await startTestApp();
    admin = await signedInAdmin(app);
  });
  after(() => app.close());

  const admins = async () => ((await admin.get('/auth/users/')).body as { username: string; role: string }[]).filter((u) => u.role === 'admin').map((u) => u.username);

  describe('the last admin (given "admin" is the only one)', () => {
    before(async () => expect(await admins()).to.deep.equal(['admin']));

    it('cannot be deleted: 409, and stays', async () => {
      const res = await admin.delete('/auth/users/admin');
      expect(res.status).to.equal(409);
      expect(res.body.detail).to.match(/last admin/i);
      expect((await admin.get('/auth/me')).body.role).to.equal('admin');
    });

    it('cannot be demoted: 409, and stays an admin', async () => {
      const res = await admin.patch('/auth/users/admin', { role: 'viewer' });
      expect(res.status).to.equal(409);
      expect(await admins()).to.deep.equal(['admin']);
      expect((await admin.get('/auth/users/')).status).to.equal(200);
    });

    it('can be demoted once another admin exists', async () => {
      await admin.post('/auth/users/', { username: 'second-admin', password: 'second-admin-pw', role: 'admin' });
      const second = app.client();
      await second.post('/auth/login', { username: 'second-admin', password: 'second-admin-pw' });
      const res = await second.patch('/auth/users/admin', { role: 'staff' });
      expect(res.status).to.equal(200);
      expect(res.body.role).to.equal('staff');
      expect(await second.patch('/auth/users/second-admin', { role: 'viewer' }).then((r) => r.status)).to.equal(409);
      expect((await second.patch('/auth/users/admin', { role: 'admin' })).status).to.equal(200);
      admin = await signedInAdmin(app);
      expect((await admin.delete('/auth/users/second-admin')).status).to.equal(200);
      expect(await admins()).to.deep.equal(['admin']);
    });
  });

  describe('GET /auth/users/', () => {
    it('lists every account as user objects without any hash, credential or token', async () => {
      const { username } = await signedInAs(app, 'staff');
      const res = await admin.get('/auth/users/');
      expect(res.status).to.equal(200);
      expect(res.body.map((u: { username: string }) => u.username)).to.include.members(['admin', username]);
      for (const user of res.body) {
        expect(user).to.include.keys('username', 'role', 'preferences');
        expect(keysOf(user).filter((k) => SECRET_KEY.test(k))).to.deep.equal([]);
      }
      expect(JSON.stringify(res.body)).not.to.include('scrypt$');
    });
  });

  describe('POST /auth/users/', () => {
    it('creates an account with the role given, which then signs in with it', async () => {
      const res = await admin.post('/auth/users/', { username: 'made-staff', password: 'made-staff-pw', role: 'staff' });
      expect(res.status).to.equal(201);
      expect(res.body).to.include({ username: 'made-staff', role: 'staff' });
      expect(keysOf(res.body).filter((k) => SECRET_KEY.test(k))).to.deep.equal([]);
      const login = await app.client().post('/auth/login', { username: 'made-staff', password: 'made-staff-pw' });
      expect(login.status).to.equal(200);
      expect(login.body.role).to.equal('staff');
    });

    it('creates a viewer when no role is given', async () => {
      const res = await admin.post('/auth/users/', { username: 'made-viewer', password: 'made-viewer-pw' });
      expect(res.status).to.equal(201);
      expect(res.body.role).to.equal('viewer');
    });

    it('does not sign the admin in as the new account', async () => {
      await admin.post('/auth/users/', { username: 'not-me', password: 'not-me-pw' });
      expect((await admin.get('/auth/me')).body.username).to.equal('admin');
    });

    it('given an existing name, then 409', async () => {
      expect((await admin.post('/auth/users/', { username: 'Admin', password: 'whatever-pw', role: 'viewer' })).status).to.equal(409);
    });

    it('given an unknown role, then 422', async () => {
      const res = await admin.post('/auth/users/', { username: 'odd-role', password: 'odd-role-pw', role: 'root' });
      expect(res.status).to.equal(422);
      expect(res.body.detail[0].loc).to.deep.equal(['body', 'role']);
    });
  });

  describe('PATCH /auth/users/{username}', () => {
    it("changes the role, and the account's existing sessions end", async () => {
      const { client, username, password } = await signedInAs(app, 'viewer');
      const res = await admin.patch(`/auth/users/${username}`, { role: 'staff' });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ username, role: 'staff' });
      expect((await client.get('/auth/me')).status).to.equal(401);
      const again = await app.client().post('/auth/login', { username, password });
      expect(again.body.role).to.equal('staff');
    });

    it('promotes to admin, and the promoted account reaches admin routes', async () => {
      const { username, password } = await signedInAs(app, 'viewer');
      await admin.patch(`/auth/users/${username}`, { role: 'admin' });
      const promoted = app.client();
      await promoted.post('/auth/login', { username, password });
      expect((await promoted.get('/auth/users/')).status).to.equal(200);
      await admin.patch(`/auth/users/${username}`, { role: 'viewer' });
      expect((await promoted.get('/auth/users/')).status).to.equal(401);
    });

    it('changes profile fields without ending sessions', async () => {
      const { client, username } = await signedInAs(app, 'viewer');
      const res = await admin.patch(`/auth/users/${username}`, { display_name: 'Renamed', preferences: { mediaserver_favorites_sync_enabled: true } });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ display_name: 'Renamed' });
      expect(res.body.preferences.mediaserver_favorites_sync_enabled).to.equal(true);
      expect((await client.get('/auth/me')).body.display_name).to.equal('Renamed');
    });

    it('given an unknown account, then 404', async () => {
      expect((await admin.patch('/auth/users/no-such-user', { role: 'staff' })).status).to.equal(404);
    });

    it('given an unknown role, then 422', async () => {
      const { username } = await signedInAs(app, 'viewer');
      expect((await admin.patch(`/auth/users/${username}`, { role: 'owner' })).status).to.equal(422);
    });
  });

  describe('DELETE /auth/users/{username}', () => {
    it("deletes the account, and its existing session is 401 at once", async () => {
      const { client, username } = await signedInAs(app, 'staff');
      expect((await client.get('/auth/me')).status).to.equal(200);
      const res = await admin.delete(`/auth/users/${username}`);
      expect(res.status).to.equal(200);
      expect((await client.get('/auth/me')).status).to.equal(401);
    });

    it('then the account can no longer sign in, with the generic 401', async () => {
      const { username, password } = await signedInAs(app, 'viewer');
      await admin.delete(`/auth/users/${username}`);
      const res = await app.client().post('/auth/login', { username, password });
      expect(res.status).to.equal(401);
      const unknown = await app.client().post('/auth/login', { username: 'never-existed', password });
      expect(res.body).to.deep.equal(unknown.body);
    });

    it('then the account is gone from the list, and deleting it again is 404', async () => {
      const { username } = await signedInAs(app, 'viewer');
      await admin.delete(`/auth/users/${username}`);
      const listed = (await admin.get('/auth/users/')).body.map((u: { username: string }) => u.username);
      expect(listed).not.to.include(username);
      expect((await admin.delete(`/auth/users/${username}`)).status).to.equal(404);
      expect((await admin.patch(`/auth/users/${username}`, { role: 'staff' })).status).to.equal(404);
    });

    it('then the name can be registered again as a new viewer, and an old session stays void', async () => {
      const { client, username } = await signedInAs(app, 'staff');
      await admin.delete(`/auth/users/${username}`);
      const fresh = app.client();
      const res = await fresh.post('/auth/register', { username, password: 'a-new-owner-pw' });
      expect(res.status).to.equal(200);
      expect(res.body.role).to.equal('viewer');
      expect((await client.get('/auth/me')).status).to.equal(401);
      expect((await fresh.get('/auth/me')).status).to.equal(200);
    });

    it('given an unknown account, then 404', async () => {
      expect((await admin.delete('/auth/users/no-such-user')).status).to.equal(404);
    });
  });

  describe('POST /auth/users/{username}/password', () => {
    it("resets the password: the new one signs in, the old one does not, and the account's sessions end", async () => {
      const { client, username, password } = await signedInAs(app, 'viewer');
      const res = await admin.post(`/auth/users/${username}/password`, { new_password: 'reset-by-admin' });
      expect(res.status).to.equal(200);
      expect((await client.get('/auth/me')).status).to.equal(401);
      expect((await app.client().post('/auth/login', { username, password: 'reset-by-admin' })).status).to.equal(200);
      expect((await app.client().post('/auth/login', { username, password })).status).to.equal(401);
    });

    it('given an unknown account, then 404', async () => {
      expect((await admin.post('/auth/users/no-such-user/password', { new_password: 'whatever-pw' })).status).to.equal(404);
    });

    it("given the user's own change and an admin reset at the same moment, then the account signs in with one of the new passwords", async () => {
      for (let round = 0; round < 4; round++) {
        const { client, username, password } = await signedInAs(app, 'viewer');
        await Promise.all([
          client.post('/auth/me/password', { current_password: password, new_password: 'changed-by-user' }),
          admin.post(`/auth/users/${username}/password`, { new_password: 'reset-by-admin' }),
          admin.post(`/auth/users/${username}/password`, { new_password: 'reset-by-admin' }),
        ]);
        const logins = await Promise.all(['changed-by-user', 'reset-by-admin'].map((pw) => app.client().post('/auth/login', { username, password: pw })));
        expect(logins.map((r) => r.status)).to.include(200);
      }
    });

    it('given a too short password, then 422', async () => {
      const { username } = await signedInAs(app, 'viewer');
      expect((await admin.post(`/auth/users/${username}/password`, { new_password: 'x' })).status).to.equal(422);
    });
  });

  describe('for a non-admin', () => {
    it('every user-administration call is 403, and nothing changes', async () => {
      const { client } = await signedInAs(app, 'staff');
      const { username } = await signedInAs(app, 'viewer');
      expect((await client.get('/auth/users/')).status).to.equal(403);
      expect((await client.post('/auth/users/', { username: 'by-staff', password: 'by-staff-pw', role: 'admin' })).status).to.equal(403);
      expect((await client.patch(`/auth/users/${username}`, { role: 'admin' })).status).to.equal(403);
      expect((await client.post(`/auth/users/${username}/password`, { new_password: 'hijacked' })).status).to.equal(403);
      expect((await client.delete(`/auth/users/${username}`)).status).to.equal(403);
      const listed = (await admin.get('/auth/users/')).body as { username: string; role: string }[];
      expect(listed.map((u) => u.username)).not.to.include('by-staff');
      expect(listed.find((u) => u.username === username)!.role).to.equal('viewer');
    });
  });

  // Last: a failure here can leave no admin behind, which would fail every test after it.
  describe('two admins demoting or deleting each other at the same moment', () => {
    for (const [what, act] of [
      ['demote', (client: ApiClient, username: string) => client.patch(`/auth/users/${username}`, { role: 'viewer' })],
      ['delete', (client: ApiClient, username: string) => client.delete(`/auth/users/${username}`)],
    ] as const) {
      it(`${what}: one wins, the other is refused (409, or 401 once its own session has ended), and an admin remains`, async () => {
        const { client: first, username: firstName } = await signedInAs(app, 'admin');
        const { client: second, username: secondName } = await signedInAs(app, 'admin');
        expect((await admin.patch('/auth/users/admin', { role: 'staff' })).status).to.equal(200);
        const results = await Promise.all([act(first, secondName), act(second, firstName)]);
        expect(results.filter((r) => r.status === 200)).to.have.length(1);
        expect(results.find((r) => r.status !== 200)!.status).to.be.oneOf([401, 409]);
        const survivor = results[0]!.status === 200 ? first : second;
        expect((await survivor.patch('/auth/users/admin', { role: 'admin' })).status).to.equal(200);
        admin = await signedInAdmin(app);
        for (const name of [firstName, secondName]) await admin.delete(`/auth/users/${name}`);
        expect(await admins()).to.deep.equal(['admin']);
      });
    }
  });
});
