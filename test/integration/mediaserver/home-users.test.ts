import { expect } from 'chai';
import type { ApiClient, TestApp } from '../../support/api.ts';
import { startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { type MediaserverFake, mediaserverEnv, startMediaserverFake } from '../../fakes/mediaserver/server.ts';

const KID = 33542084;

describe('mediaserver: home users', () => {
  let fake: MediaserverFake;
  let app: TestApp;
  before(async () => {
    fake = await startMediaserverFake();
    fake.requirePin('USER_UUID', '4321');
    app = await startTestApp(mediaserverEnv(fake));
  });
  after(async () => {
    await app.close();
    await fake.close();
  });

  async function linkedUser(): Promise<{ client: ApiClient; username: string; token: string }> {
    const user = await signedInAs(app, 'viewer');
    await user.client.post('/mediaserver/me/auth/start');
    const token = fake.linkPin();
    expect((await user.client.post('/mediaserver/me/auth/finish')).body.status).to.equal('completed');
    return { ...user, token };
  }
  const provision = (client: ApiClient, id: number, body: Record<string, string>) => client.post(`/mediaserver/me/home-users/${id}/provision`, body);

  it('given a user who is not linked, then listing and provisioning answer 412', async () => {
    const { client } = await signedInAs(app, 'viewer');
    expect((await client.get('/mediaserver/me/home-users')).status).to.equal(412);
    expect((await provision(client, KID, { new_username: 'nobody1', new_password: 'secret-pass', pin: '4321' })).status).to.equal(412);
  });

  it('given a linked user, when the home users are listed, then the caller is left out', async () => {
    const { client, token } = await linkedUser();
    const res = await client.get('/mediaserver/me/home-users');
    expect(res.status).to.equal(200);
    expect(res.body).to.have.length(1);
    expect(res.body[0]).to.include({ id: KID, uuid: 'USER_UUID', title: 'this is a user', restricted: true });
    expect(fake.requestsTo('/api/v2/home/users').at(-1)!.headers['x-plex-token']).to.equal(token);
    expect(JSON.stringify(res.body)).not.to.contain(token);
  });

  it('given a wrong PIN or an unknown home user, when provisioning, then 400 with the account service message', async () => {
    const { client } = await linkedUser();
    const wrong = await provision(client, KID, { new_username: 'kid-wrong', new_password: 'secret-pass', pin: '0000' });
    expect(wrong.status).to.equal(400);
    expect(wrong.body.detail).to.equal('A valid PIN is required to perform this action');
    expect((await provision(client, 999, { new_username: 'kid-none', new_password: 'secret-pass', pin: '4321' })).status).to.equal(400);
    expect((await app.client().post('/auth/login', { username: 'kid-wrong', password: 'secret-pass' })).status).to.equal(401);
  });

  it('given a username that exists, when provisioning, then 409 and nothing is switched', async () => {
    const { client, username } = await linkedUser();
    const switches = fake.requestsTo('/api/v2/home/users/USER_UUID/switch').length;
    expect((await provision(client, KID, { new_username: username, new_password: 'secret-pass', pin: '4321' })).status).to.equal(409);
    expect(fake.requestsTo('/api/v2/home/users/USER_UUID/switch')).to.have.length(switches);
  });

  it('given the right PIN, when provisioning, then 201 with the new profile, and the new account is linked to the home user', async () => {
    const { client } = await linkedUser();
    const res = await provision(client, KID, { new_username: 'kiddo', new_password: 'kiddo-password', pin: '4321' });
    expect(res.status).to.equal(201);
    expect(res.body).to.include({ username: 'kiddo', role: 'viewer' });
    const kid = app.client();
    expect((await kid.post('/auth/login', { username: 'kiddo', password: 'kiddo-password' })).status).to.equal(200);
    const me = await kid.get('/mediaserver/me');
    expect(me.body.link).to.include({ account_id: KID, account_uuid: 'USER_UUID' });
  });

  it('given the account service failing, when provisioning, then 502 and no account is created', async () => {
    const { client } = await linkedUser();
    fake.failNext(500, '/api/v2/home/users/USER_UUID/switch');
    const res = await provision(client, KID, { new_username: 'kid-502', new_password: 'secret-pass', pin: '4321' });
    expect(res.status).to.equal(502);
    expect((await app.client().post('/auth/login', { username: 'kid-502', password: 'secret-pass' })).status).to.equal(401);
  });

  it('given a revoked token, when the home users are listed, then 401', async () => {
    const { client, token } = await linkedUser();
    fake.revoke(token);
    const res = await client.get('/mediaserver/me/home-users');
    expect(res.status).to.equal(401);
    expect((await client.get('/auth/me')).status, 'the session itself stays valid').to.equal(200);
  });
});
