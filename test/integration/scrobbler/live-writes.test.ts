import { expect } from 'chai';
import { type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { linkThroughBrowser } from '../../support/scrobbler.ts';
import { capturedLog } from '../../support/capture-log.ts';
import { type ScrobblerFake, FAKE_SECRET, listHistory, startScrobblerFake } from '../../fakes/scrobbler/server.ts';
import { liveState } from '../../fakes/scrobbler/live-state.ts';
import { apiSignature } from '../../../infra/upstreams/scrobbler/signature.ts';

describe('scrobbler writes: love, unlove, scrobble, now playing with the caller’s session key', () => {
  let fake: ScrobblerFake;
  let app: TestApp;

  before(async () => {
    fake = await startScrobblerFake();
    fake.state.addUser('RJ', listHistory([]));
    fake.state.addUser('Other', listHistory([]));
    app = await startTestApp(fake.env);
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });
  after(async () => {
    await app.close();
    await fake.close();
  });

  const sent = (method: string) => fake.requests.filter((r) => (r.body as Record<string, string> | undefined)?.method === method);
  const sessionKeyOf = (user: string) => [...fake.state.sessions].filter(([, u]) => u === user).map(([key]) => key).at(-1);

  async function linkedAs(scrobblerUser: string) {
    const user = await signedInAs(app, 'viewer');
    expect((await linkThroughBrowser(user.client, fake, scrobblerUser)).status).to.equal(302);
    fake.requests.length = 0;
    return user.client;
  }

  it('loves as the caller: a signed POST carrying the session key of the caller’s own link', async () => {
    const other = await linkedAs('Other');
    const client = await linkedAs('RJ');
    const res = await client.post('/scrobbler/me/love', { artist: 'Cher', track: 'Believe' });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ artist: 'Cher', track: 'Believe', loved: true });
    const [call] = sent('track.love');
    expect(call?.method).to.equal('POST');
    const { api_sig: sig, format: _format, ...signedPart } = call!.body as Record<string, string>;
    expect(signedPart.sk).to.equal(sessionKeyOf('RJ'));
    expect(sig).to.equal(apiSignature(signedPart, FAKE_SECRET));
    expect(liveState(fake.state).lovedBy('RJ').has('cher::believe')).to.equal(true);
    expect(liveState(fake.state).lovedBy('Other').size).to.equal(0);
    expect((await other.post('/scrobbler/me/unlove', { artist: 'Cher', track: 'Believe' })).status).to.equal(200);
    expect(liveState(fake.state).lovedBy('RJ').has('cher::believe')).to.equal(true);
  });

  it('scrobbles a play with its timestamp and reports what the scrobbler accepted or ignored', async () => {
    const client = await linkedAs('RJ');
    const now = Math.floor(Date.now() / 1000);
    const res = await client.post('/scrobbler/me/scrobble', { artist: '65daysofstatic', track: 'Hole', album: 'The Fall of Math', timestamp: now - 60, duration: 300 });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ accepted: 1, ignored: 0, artist: '65daysofstatic', track: 'Hole', album: 'The Fall of Math', ignored_code: 0, timestamp: now - 60 });
    expect(sent('track.scrobble')[0]?.body).to.include({ artist: '65daysofstatic', track: 'Hole', timestamp: String(now - 60), duration: '300', sk: sessionKeyOf('RJ') });
    const old = await client.post('/scrobbler/me/scrobble', { artist: 'A', track: 'B', timestamp: now - 30 * 86400 });
    expect(old.body).to.include({ accepted: 0, ignored: 1, ignored_code: 3 });
    expect(old.body.ignored_message).to.be.a('string');
  });

  it('sends now playing signed, without a timestamp', async () => {
    const client = await linkedAs('RJ');
    const res = await client.post('/scrobbler/me/now-playing', { artist: 'Cher', track: 'Believe', album: 'Believe' });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ artist: 'Cher', track: 'Believe', album: 'Believe', ignored_code: 0, ignored_message: null });
    const body = sent('track.updateNowPlaying')[0]?.body as Record<string, string>;
    expect(body).to.include({ sk: sessionKeyOf('RJ') });
    expect(body).to.have.property('api_sig');
    expect(body).not.to.have.property('timestamp');
  });

  it('answers 412 without a link, and asks nothing upstream', async () => {
    const { client } = await signedInAs(app, 'viewer');
    for (const path of ['/scrobbler/me/love', '/scrobbler/me/unlove', '/scrobbler/me/scrobble', '/scrobbler/me/now-playing']) {
      expect((await client.post(path, { artist: 'Cher', track: 'Believe' })).status).to.equal(412);
    }
    expect(fake.requests).to.deep.equal([]);
  });

  it('answers 412 when the scrobbler no longer accepts the stored key, without the key in the answer or the log', async () => {
    const client = await linkedAs('RJ');
    const key = sessionKeyOf('RJ')!;
    fake.state.sessions.delete(key);
    const { result: res, log } = await capturedLog(() => client.post('/scrobbler/me/love', { artist: 'Cher', track: 'Believe' }));
    expect(res.status).to.equal(412);
    expect(res.body.detail).to.match(/connect the scrobbler again/);
    expect(JSON.stringify(res.body) + log).not.to.include(key);
  });

  it('refuses a body without artist or track with 422', async () => {
    const client = await linkedAs('RJ');
    expect((await client.post('/scrobbler/me/love', { artist: 'Cher' })).status).to.equal(422);
    expect((await client.post('/scrobbler/me/scrobble', { track: 'x' })).status).to.equal(422);
  });
});
