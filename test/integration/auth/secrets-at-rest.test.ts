import { expect } from 'chai';
import { type TestApp, startTestApp } from '../../support/api.ts';
import { ADMIN, signedInAdmin } from '../../support/given.ts';

/**
 * given(a fresh service).when(accounts are registered, created and have their passwords changed)
 * .then(the event log holds no password and no hash; the credentials store holds only live hashes, sealed).
 */
describe('auth: no password or hash in the event log', () => {
  let app: TestApp;
  const passwords = {
    registered: 'registered-Pa55word',
    changed: 'changed-Pa55word',
    created: 'created-by-admin-Pa55word',
    reset: 'reset-by-admin-Pa55word',
    refused: 'refused-Pa55word',
  };

  before(async () => {
    app = await startTestApp();
    const user = app.client();
    expect((await user.post('/auth/register', { username: 'carol', password: passwords.registered })).status).to.equal(200);
    expect((await user.post('/auth/me/password', { current_password: passwords.registered, new_password: passwords.changed })).status).to.equal(200);
    expect((await user.patch('/auth/me', { display_name: 'Carol' })).status).to.equal(200);
    const admin = await signedInAdmin(app);
    expect((await admin.post('/auth/users/', { username: 'dave', password: passwords.created, role: 'staff' })).status).to.equal(201);
    expect((await admin.post('/auth/users/dave/password', { new_password: passwords.reset })).status).to.equal(200);
    expect((await admin.patch('/auth/users/dave', { role: 'viewer' })).status).to.equal(200);
    expect((await admin.delete('/auth/users/carol')).status).to.equal(200);
    expect((await app.client().post('/auth/register', { username: 'Dave', password: passwords.refused })).status).to.equal(409);
    expect((await admin.post('/auth/users/nobody/password', { new_password: passwords.refused })).status).to.equal(404);
  });
  after(() => app.close());

  const allEvents = async () => app.ctx.store.readAll({ maxCount: 10000 });

  it('recorded the user events', async () => {
    const types = (await allEvents()).filter((e) => e.streamId.startsWith('user-')).map((e) => e.type);
    expect(types).to.include.members(['UserRegistered', 'UserPasswordChanged', 'UserProfileChanged', 'UserRoleChanged', 'UserDeleted']);
  });

  it('no event, data or metadata, contains a password or a scrypt hash', async () => {
    const leaks: string[] = [];
    for (const event of await allEvents()) {
      const json = JSON.stringify({ data: event.data, metadata: event.metadata });
      for (const secret of [...Object.values(passwords), ADMIN.password, 'scrypt$']) if (json.includes(secret)) leaks.push(`${event.type} contains ${secret}`);
    }
    expect(leaks).to.deep.equal([]);
  });

  it('no event names a field after a password, hash or token', async () => {
    const names = (await allEvents()).flatMap((e) => Object.keys(e.data as object));
    expect(names.filter((n) => /password|hash|token|secret/i.test(n))).to.deep.equal([]);
  });

  describe('the credentials store', () => {
    const credentials = () => app.ctx.db.selectFrom('credentials').select(['owner', 'kind', 'secret']).execute();

    it('holds the hashes sealed: no password and no readable hash', async () => {
      for (const row of await credentials()) {
        for (const secret of [...Object.values(passwords), ADMIN.password, 'scrypt$']) expect(row.secret).not.to.include(secret);
      }
    });

    it('keeps one hash per live account: none for replaced passwords, deleted accounts or refused commands', async () => {
      const owners = (await credentials()).filter((c) => c.kind === 'password').map((c) => c.owner);
      expect(owners.sort()).to.deep.equal(['admin', 'dave']);
    });
  });
});
