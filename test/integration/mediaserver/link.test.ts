import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient, TestApp } from '../../support/api.ts';
import { startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { type MediaserverFake, mediaserverEnv, startMediaserverFake } from '../../fakes/mediaserver/server.ts';


describe('mediaserver: linking an account through a PIN', () => {
  let fake: MediaserverFake;
  let app: TestApp;
  before(async () => {
    fake = await startMediaserverFake();
    app = await startTestApp(mediaserverEnv(fake));
  });
  after(async () => {
    await app.close();
    await fake.close();
  });
  beforeEach(() => fake.clearRequests());

  const polls = () => fake.requestsTo('/api/v2/pins/').filter((r) => r.method === 'GET');
  async function newUser(): Promise<{ client: ApiClient; username: string }> {
    return signedInAs(app, 'viewer');
  }

  describe('given a user with no pending PIN', () => {
    it('when the link state is read, then link is null and no PIN is pending', async () => {
      const { client } = await newUser();
      const res = await client.get('/mediaserver/me');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ linked: false, link: null, has_pending_pin: false });
    });

    it('when finish is called, then the answer is no_pending_pin and nothing is polled', async () => {
      const { client } = await newUser();
      const res = await client.post('/mediaserver/me/auth/finish');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ status: 'no_pending_pin' });
      expect(fake.requests).to.have.length(0);
    });
  });

  describe('given a started PIN', () => {
    it('when finish is polled before and after the user links it, then pending, then completed with the link', async () => {
      const { client, username } = await newUser();
      const start = await client.post('/mediaserver/me/auth/start');
      expect(start.status).to.equal(200);
      expect(start.body.code).to.be.a('string').and.not.equal('');
      expect(start.body.auth_url).to.contain(encodeURIComponent(start.body.code));
      expect(start.body.expires_in).to.equal(900);
      expect((await client.get('/mediaserver/me')).body).to.deep.include({ has_pending_pin: true, link: null });

      const pending = await client.post('/mediaserver/me/auth/finish');
      expect(pending.body.status).to.equal('pending');
      expect(polls()).to.have.length(1);

      const token = fake.linkPin();
      const done = await client.post('/mediaserver/me/auth/finish');
      expect(done.status).to.equal(200);
      expect(done.body.status).to.equal('completed');
      expect(done.body.link).to.include({ account_id: 2737029, account_uuid: 'ADMIN_UUID', account_username: 'user@example.com' });
      expect(polls()).to.have.length(2);
      expect(polls().every((r) => r.headers['x-plex-client-identifier'] === 'test-client-id')).to.equal(true);
      expect(fake.requestsTo('/api/v2/user')[0]!.headers['x-plex-token']).to.equal(token);

      const me = await client.get('/mediaserver/me');
      expect(me.body).to.deep.include({ linked: true, has_pending_pin: false });
      expect(me.body.link.account_id).to.equal(2737029);
      expect(JSON.stringify([done.body, me.body])).not.to.contain(token);
      expect((await client.post('/mediaserver/me/auth/finish')).body).to.deep.equal({ status: 'no_pending_pin' });

      const log = await app.ctx.store.readAll();
      expect(JSON.stringify(log.map((e) => [e.data, e.metadata]))).not.to.contain(token);
      const admin = await signedInAdmin(app);
      const linked = await admin.get('/mediaserver/admin/linked-users');
      expect(linked.body.map((u: { username: string }) => u.username)).to.include(username);
    });

    it('when the account service says the PIN is gone, then finish answers expired with an error, once', async () => {
      const { client } = await newUser();
      await client.post('/mediaserver/me/auth/start');
      fake.expirePin();
      const res = await client.post('/mediaserver/me/auth/finish');
      expect(res.body.status).to.equal('expired');
      expect(res.body.error).to.be.a('string');
      expect(polls()).to.have.length(1);
      expect((await client.get('/mediaserver/me')).body.has_pending_pin).to.equal(false);
      expect((await client.post('/mediaserver/me/auth/finish')).body).to.deep.equal({ status: 'no_pending_pin' });
    });

    it('when the PIN outlives its lifetime, then finish answers expired', async () => {
      const { client } = await newUser();
      fake.setPinLifetime(1);
      try {
        const start = await client.post('/mediaserver/me/auth/start');
        expect(start.body.expires_in).to.equal(1);
      } finally {
        fake.setPinLifetime(900);
      }
      await sleep(1100);
      expect((await client.get('/mediaserver/me')).body.has_pending_pin).to.equal(false);
      const res = await client.post('/mediaserver/me/auth/finish');
      expect(res.body.status).to.equal('expired');
      expect(polls().length).to.be.at.most(1);
    });

    it('when the account service fails while polling, then 502 after that one poll, and the PIN is still pending', async () => {
      const { client } = await newUser();
      await client.post('/mediaserver/me/auth/start');
      fake.failNext(500, '/api/v2/pins/');
      const res = await client.post('/mediaserver/me/auth/finish');
      expect(res.status).to.equal(502);
      expect(polls()).to.have.length(1);
      expect((await client.get('/mediaserver/me')).body.has_pending_pin).to.equal(true);
      expect((await client.post('/mediaserver/me/auth/finish')).body.status).to.equal('pending');
    });

    it('when it is cancelled, then nothing is pending and finish has nothing to poll', async () => {
      const { client } = await newUser();
      await client.post('/mediaserver/me/auth/start');
      expect((await client.post('/mediaserver/me/auth/cancel')).body).to.deep.equal({ cancelled: true });
      expect((await client.get('/mediaserver/me')).body.has_pending_pin).to.equal(false);
      expect((await client.post('/mediaserver/me/auth/finish')).body).to.deep.equal({ status: 'no_pending_pin' });
      expect((await client.post('/mediaserver/me/auth/cancel')).body).to.deep.equal({ cancelled: false });
      expect(polls()).to.have.length(0);
    });

    it('when a second PIN is started, then only the newest one is polled', async () => {
      const { client } = await newUser();
      await client.post('/mediaserver/me/auth/start');
      const first = fake.pins().at(-1)!;
      await client.post('/mediaserver/me/auth/start');
      const second = fake.pins().at(-1)!;
      await client.post('/mediaserver/me/auth/finish');
      expect(polls().map((r) => r.path)).to.deep.equal([`/api/v2/pins/${second.id}`]);
      expect(second.id).not.to.equal(first.id);
    });
  });

  describe('given a linked user', () => {
    async function linkedUser() {
      const user = await newUser();
      await user.client.post('/mediaserver/me/auth/start');
      fake.linkPin();
      expect((await user.client.post('/mediaserver/me/auth/finish')).body.status).to.equal('completed');
      return user;
    }
    const tokensOf = async (username: string) =>
      app.ctx.db.selectFrom('credentials').select('credential_id').where('owner', '=', username.toLowerCase()).where('kind', '=', 'mediaserver_token').execute();

    it('when they unlink, then link is null and the stored token is gone', async () => {
      const { client, username } = await linkedUser();
      expect(await tokensOf(username)).to.have.length(1);
      const res = await client.delete('/mediaserver/me');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ unlinked: true });
      expect((await client.get('/mediaserver/me')).body).to.deep.include({ linked: false, link: null });
      expect(await tokensOf(username)).to.have.length(0);
      expect((await client.delete('/mediaserver/me')).body).to.deep.equal({ unlinked: false });
    });

    it('when an admin unlinks them, then they leave the linked users list', async () => {
      const { client, username } = await linkedUser();
      const admin = await signedInAdmin(app);
      const res = await admin.delete(`/mediaserver/admin/linked-users/${username}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ username, unlinked: true });
      const list = await admin.get('/mediaserver/admin/linked-users');
      expect(list.body.map((u: { username: string }) => u.username)).not.to.include(username);
      expect((await client.get('/mediaserver/me')).body.link).to.equal(null);
    });

    it('when their account is deleted, then they leave the linked users list', async () => {
      const { username } = await linkedUser();
      const admin = await signedInAdmin(app);
      expect((await admin.delete(`/auth/users/${username}`)).status).to.equal(200);
      const list = await admin.get('/mediaserver/admin/linked-users');
      expect(list.body.map((u: { username: string }) => u.username)).not.to.include(username);
    });

    it('when a viewer asks for the linked users, then 403', async () => {
      const { client } = await linkedUser();
      expect((await client.get('/mediaserver/admin/linked-users')).status).to.equal(403);
    });
  });
});
