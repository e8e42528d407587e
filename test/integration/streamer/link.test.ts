import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { pkceChallenge } from '../../../infra/upstreams/streamer/accounts.ts';
import { type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { approvedCallback, linkStreamer } from '../../support/streamer.ts';
import { type StreamerFake, FAKE_REDIRECT_URI, startStreamerFake } from '../../fakes/streamer/server.ts';

const CLIENT = 'http://client.test:5173';

describe('streamer link: auth/start, callback, GET and DELETE /streamer/me', () => {
  let fake: StreamerFake;
  let app: TestApp;

  before(async () => {
    fake = await startStreamerFake();
    fake.state.addAccount('wizzler', 'Wizzler');
    fake.state.addAccount('other', 'Other One');
    app = await startTestApp({ ...fake.env, CLIENT_URL: CLIENT });
  });
  after(async () => {
    await app.close();
    await fake.close();
  });

  describe('given the streamer is not configured', () => {
    let bare: TestApp;
    before(async () => (bare = await startTestApp()));
    after(() => bare.close());

    it('then every streamer route answers 503 naming the variables, and GET /streamer/me answers {link: null}', async () => {
      const { client } = await signedInAs(bare, 'viewer');
      for (const res of [await client.post('/streamer/me/auth/start'), await client.get('/streamer/auth/callback?code=x&state=y'), await client.delete('/streamer/me')]) {
        expect(res.status).to.equal(503);
        expect(res.body.detail).to.include('STREAMER_CLIENT_ID').and.include('STREAMER_REDIRECT_URI');
      }
      const me = await client.get('/streamer/me');
      expect(me.status).to.equal(200);
      expect(me.body).to.deep.equal({ link: null });
    });
  });

  it('when start is called, then the URL asks for a code with PKCE S256, our redirect URI, the scopes and a state', async () => {
    const { client } = await signedInAs(app, 'viewer');
    const res = await client.post('/streamer/me/auth/start');
    expect(res.status).to.equal(200);
    const url = new URL(res.body.url);
    expect(`${url.origin}${url.pathname}`).to.equal(`${fake.url}/authorize`);
    expect(Object.fromEntries(url.searchParams)).to.include({ client_id: fake.env.STREAMER_CLIENT_ID, response_type: 'code', redirect_uri: FAKE_REDIRECT_URI, code_challenge_method: 'S256' });
    expect(url.searchParams.get('scope')).to.include('user-library-read').and.include('playlist-read-private');
    expect(url.searchParams.get('code_challenge')).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).to.be.a('string');
  });

  it('given the user approved, when the browser comes back, then the tokens are stored, the link shown and the browser sent to the settings page', async () => {
    const { client } = await signedInAs(app, 'viewer');
    const callback = await client.get(await approvedCallback(client, fake, 'wizzler'));
    expect(callback.status).to.equal(302);
    expect(callback.headers.get('location')).to.equal(`${CLIENT}/settings?streamer=linked`);
    const token = fake.requestsTo('/api/token').at(-1)!;
    expect(token.body).to.include({ grant_type: 'authorization_code', redirect_uri: FAKE_REDIRECT_URI });
    const me = await client.get('/streamer/me');
    expect(me.status).to.equal(200);
    expect(me.body.link).to.include({ account_id: 'wizzler', display_name: 'Wizzler', state: 'linked', last_sync_at: null });
    expect(Date.parse(me.body.link.linked_at)).to.be.closeTo(Date.now(), 60_000);
    const linked = (await app.ctx.store.readAll()).filter((e) => e.type === 'StreamerLinked').at(-1)!;
    expect(linked.data).to.include({ account_id: 'wizzler', display_name: 'Wizzler' });
  });

  it('the verifier sent with the code hashes to the challenge of the authorize URL', async () => {
    const { client } = await signedInAs(app, 'viewer');
    const start = await client.post('/streamer/me/auth/start');
    const challenge = new URL(start.body.url).searchParams.get('code_challenge');
    const { code, state } = fake.state.approve('wizzler', start.body.url);
    await client.get(`/streamer/auth/callback?code=${code}&state=${encodeURIComponent(state)}`);
    const sent = fake.requestsTo('/api/token').at(-1)!.body as Record<string, string>;
    expect(pkceChallenge(sent.code_verifier!)).to.equal(challenge);
  });

  it('when the callback carries none of code, state and error, then 400', async () => {
    const { client } = await signedInAs(app, 'viewer');
    const res = await client.get('/streamer/auth/callback');
    expect(res.status).to.equal(400);
  });

  it('when the user denied, then the browser goes to the settings page with the error and its reason, and nothing is linked', async () => {
    const { client } = await signedInAs(app, 'viewer');
    const start = await client.post('/streamer/me/auth/start');
    const state = new URL(start.body.url).searchParams.get('state')!;
    const res = await client.get(`/streamer/auth/callback?error=access_denied&state=${encodeURIComponent(state)}`);
    expect(res.status).to.equal(302);
    expect(res.headers.get('location')).to.equal(`${CLIENT}/settings?streamer=error&reason=access_denied`);
    expect((await client.get('/streamer/me')).body).to.deep.equal({ link: null });
  });

  it('a used state, a state of another user and a refused code redirect with an error marker', async () => {
    const ann = await signedInAs(app, 'viewer');
    const bob = await signedInAs(app, 'viewer');
    const path = await approvedCallback(ann.client, fake, 'wizzler');
    const stolen = await bob.client.get(path);
    expect(stolen.headers.get('location')).to.equal(`${CLIENT}/settings?streamer=error&reason=state_invalid`);
    expect((await ann.client.get(path)).headers.get('location')).to.equal(`${CLIENT}/settings?streamer=linked`);
    expect((await ann.client.get(path)).headers.get('location')).to.equal(`${CLIENT}/settings?streamer=error&reason=state_used`);
    const start = await bob.client.post('/streamer/me/auth/start');
    const state = new URL(start.body.url).searchParams.get('state')!;
    const forged = await bob.client.get(`/streamer/auth/callback?code=forged&state=${encodeURIComponent(state)}`);
    expect(forged.headers.get('location')).to.equal(`${CLIENT}/settings?streamer=error&reason=invalid_grant`);
    expect((await bob.client.get('/streamer/me')).body).to.deep.equal({ link: null });
  });

  it('never puts a token in the log, a response or DATA_DIR in plain text', async () => {
    const { client } = await signedInAs(app, 'viewer');
    const res = await linkStreamer(client, fake, 'wizzler');
    const me = await client.get('/streamer/me');
    const tokens = fake.state.issuedTokens();
    expect(tokens.length).to.be.greaterThan(0);
    const log = JSON.stringify((await app.ctx.store.readAll()).map((e) => [e.data, e.metadata]));
    const rows = JSON.stringify(await app.ctx.db.selectFrom('credentials').select('secret').execute());
    const files = filesUnder(app.ctx.config.DATA_DIR).map((f) => readFileSync(f, 'latin1')).join('\n');
    for (const token of tokens) {
      for (const text of [log, rows, files, JSON.stringify(me.body), res.headers.get('location') ?? '']) expect(text).not.to.include(token);
    }
  });

  it('given a linked user, when DELETE /streamer/me, then the link and its credential are gone', async () => {
    const { client, username } = await signedInAs(app, 'viewer');
    await linkStreamer(client, fake, 'other');
    const before = await app.ctx.db.selectFrom('credentials').select('credential_id').where('kind', '=', 'streamer_tokens').execute();
    const res = await client.delete('/streamer/me');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ unlinked: true });
    expect((await client.get('/streamer/me')).body).to.deep.equal({ link: null });
    const after = await app.ctx.db.selectFrom('credentials').select('credential_id').where('kind', '=', 'streamer_tokens').execute();
    expect(after.length).to.equal(before.length - 1);
    expect((await client.delete('/streamer/me')).body).to.deep.equal({ unlinked: false });
    expect(fake.requests.filter((r) => r.path.includes('revoke'))).to.have.length(0);
    expect(username).to.be.a('string');
  });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}
