import { expect } from 'chai';
import { type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { linkThroughBrowser } from '../../support/scrobbler.ts';
import { type ScrobblerFake, listHistory, startScrobblerFake } from '../../fakes/scrobbler/server.ts';

describe('scrobbler link: /scrobbler/auth/start, callback, disconnect', () => {
  let fake: ScrobblerFake;
  let app: TestApp;

  before(async () => {
    fake = await startScrobblerFake();
    fake.state.addUser('RJ', listHistory([]));
    app = await startTestApp({ ...fake.env, CLIENT_URL: 'http://client.test:5173' });
  });
  after(async () => {
    await app.close();
    await fake.close();
  });

  it('start answers the scrobbler page with our api key and a callback back to this service', async () => {
    const { client } = await signedInAs(app, 'viewer');
    const res = await client.get('/scrobbler/auth/start');
    expect(res.status).to.equal(200);
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).to.equal(`${fake.url}/api/auth/`);
    expect(url.searchParams.get('api_key')).to.equal(fake.env.SCROBBLER_API_KEY);
    const cb = new URL(url.searchParams.get('cb')!);
    expect(cb.pathname).to.equal('/scrobbler/auth/callback');
    expect(cb.searchParams.get('state')).to.be.a('string');
  });

  it('given the user approved, when the browser comes back, then the link is stored and the browser goes to the client', async () => {
    const { client, username } = await signedInAs(app, 'viewer');
    const res = await linkThroughBrowser(client, fake, 'RJ');
    expect(res.status).to.equal(302);
    expect(res.headers.get('location')).to.equal('http://client.test:5173/?scrobbler=linked');
    const row = await app.ctx.db.selectFrom('users').select('scrobbler_username').where('username', '=', username).executeTakeFirstOrThrow();
    expect(row.scrobbler_username).to.equal('RJ');
    const getSession = fake.requests.find((r) => (r.body as Record<string, string> | undefined)?.method === 'auth.getSession');
    expect(getSession?.method).to.equal('POST');
    expect(getSession?.body).to.have.property('api_sig');
  });

  it('never writes the session key into the event log', async () => {
    const { client } = await signedInAs(app, 'viewer');
    await linkThroughBrowser(client, fake, 'RJ');
    const keys = [...fake.state.sessions.keys()];
    const log = JSON.stringify((await app.ctx.store.readAll()).map((e) => [e.data, e.metadata]));
    for (const key of keys) expect(log).not.to.include(key);
    const stored = await app.ctx.db.selectFrom('credentials').select('secret').where('kind', '=', 'scrobbler_session').execute();
    for (const row of stored) for (const key of keys) expect(row.secret).not.to.include(key);
  });

  it('refuses a token the scrobbler never issued with 400, and links nothing', async () => {
    const { client, username } = await signedInAs(app, 'viewer');
    const res = await client.get('/scrobbler/auth/callback?token=forged');
    expect(res.status).to.equal(400);
    const row = await app.ctx.db.selectFrom('users').select('scrobbler_username').where('username', '=', username).executeTakeFirstOrThrow();
    expect(row.scrobbler_username).to.equal(null);
  });

  it('refuses a callback without a token, or with a state issued to another user', async () => {
    const { client } = await signedInAs(app, 'viewer');
    const other = await signedInAs(app, 'viewer');
    expect((await client.get('/scrobbler/auth/callback')).status).to.equal(400);
    const start = await other.client.get('/scrobbler/auth/start');
    const state = new URL(new URL(start.body.url).searchParams.get('cb')!).searchParams.get('state')!;
    const token = fake.state.newToken();
    fake.state.tokens.set(token, 'RJ');
    expect((await client.get(`/scrobbler/auth/callback?token=${token}&state=${encodeURIComponent(state)}`)).status).to.equal(400);
  });

  it('disconnect unlinks and forgets the session key; a second disconnect changes nothing', async () => {
    const { client, username } = await signedInAs(app, 'viewer');
    await linkThroughBrowser(client, fake, 'RJ');
    const before = await app.ctx.db.selectFrom('credentials').select('credential_id').where('owner', '=', username).where('kind', '=', 'scrobbler_session').execute();
    expect(before).to.have.length(1);
    const res = await client.post('/scrobbler/auth/disconnect');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ linked: false, was_linked: true });
    const row = await app.ctx.db.selectFrom('users').select('scrobbler_username').where('username', '=', username).executeTakeFirstOrThrow();
    expect(row.scrobbler_username).to.equal(null);
    const after = await app.ctx.db.selectFrom('credentials').select('credential_id').where('owner', '=', username).where('kind', '=', 'scrobbler_session').execute();
    expect(after).to.deep.equal([]);
    expect((await client.post('/scrobbler/auth/disconnect')).body).to.deep.equal({ linked: false, was_linked: false });
  });

  it('answers 503 on start when the scrobbler is not configured', async () => {
    const bare = await startTestApp();
    try {
      const { client } = await signedInAs(bare, 'viewer');
      expect((await client.get('/scrobbler/auth/start')).status).to.equal(503);
    } finally {
      await bare.close();
    }
  });
});
