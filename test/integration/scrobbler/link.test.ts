import { expect } from 'chai';
import { issueCallbackState } from '../../../infra/auth/callback-state.ts';
import { userStream } from '../../../shared/streams.ts';
import { usernameKey } from '../../../shared/usernames.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
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

  /** A state start issued to the client's user, and a token the scrobbler approved for `RJ`. */
  async function startedLink(client: ApiClient) {
    const start = await client.get('/scrobbler/auth/start');
    const state = new URL(new URL(start.body.url).searchParams.get('cb')!).searchParams.get('state')!;
    return { state, token: approvedToken() };
  }
  const approvedToken = () => {
    const token = fake.state.newToken();
    fake.state.tokens.set(token, 'RJ');
    return token;
  };
  const callback = (client: ApiClient, token: string, state?: string) =>
    client.get(`/scrobbler/auth/callback?token=${token}${state === undefined ? '' : `&state=${encodeURIComponent(state)}`}`);
  const linkedName = async (username: string) =>
    (await app.ctx.db.selectFrom('users').select('scrobbler_username').where('username', '=', username).executeTakeFirstOrThrow()).scrobbler_username;

  it('refuses a token the scrobbler never issued with 400, and links nothing', async () => {
    const { client, username } = await signedInAs(app, 'viewer');
    const { state } = await startedLink(client);
    const res = await callback(client, 'forged', state);
    expect(res.status).to.equal(400);
    expect(await linkedName(username)).to.equal(null);
  });

  it('given a link a third party started, when the victim follows its callback, then 400 and nothing is linked', async () => {
    const victim = await signedInAs(app, 'viewer');
    const attacker = await signedInAs(app, 'viewer');
    const { state, token } = await startedLink(attacker.client);
    expect((await callback(victim.client, token, state)).status).to.equal(400);
    expect((await callback(victim.client, approvedToken())).status, 'no state at all').to.equal(400);
    expect((await victim.client.get('/scrobbler/auth/callback')).status, 'no token').to.equal(400);
    expect(await linkedName(victim.username)).to.equal(null);
  });

  it('refuses a forged state and one issued more than ten minutes ago', async () => {
    const { client, username } = await signedInAs(app, 'viewer');
    const { state } = await startedLink(client);
    const [issued, nonce, sig] = state.split('.');
    const forged = `${issued}.${nonce}.${sig!.slice(0, -2)}AA`;
    expect((await callback(client, approvedToken(), forged)).status).to.equal(400);
    const old = issueCallbackState(app.ctx.secrets.jwtSecret, 'scrobbler-link', username, Date.now() - 11 * 60_000);
    const res = await callback(client, approvedToken(), old);
    expect(res.status).to.equal(400);
    expect(res.body.detail).to.contain('expired');
    expect(await linkedName(username)).to.equal(null);
  });

  it('given a state used once, when it comes back with another token, then 400 and the first link stays', async () => {
    const { client, username } = await signedInAs(app, 'viewer');
    const { state, token } = await startedLink(client);
    expect((await callback(client, token, state)).status).to.equal(302);
    const again = await callback(client, approvedToken(), state);
    expect(again.status).to.equal(400);
    expect(again.body.detail).to.contain('already used');
    expect(await linkedName(username)).to.equal('RJ');
  });

  it('given two callbacks racing with one state, then exactly one links', async () => {
    const { client, username } = await signedInAs(app, 'viewer');
    const { state, token } = await startedLink(client);
    const both = await Promise.all([callback(client, token, state), callback(client, approvedToken(), state)]);
    expect(both.map((r) => r.status).sort()).to.deep.equal([302, 400]);
    expect(await linkedName(username)).to.equal('RJ');
    const links = (await app.ctx.store.readAll()).filter((e) => e.type === 'ScrobblerLinked' && e.streamId === userStream(usernameKey(username)));
    expect(links).to.have.length(1);
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
