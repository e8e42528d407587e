import { expect } from 'chai';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { capturedLog } from '../../support/capture-log.ts';
import { type ScrobblerFake, FAKE_API_KEY, FAKE_SECRET, listHistory, startScrobblerFake } from '../../fakes/scrobbler/server.ts';
import { liveState } from '../../fakes/scrobbler/live-state.ts';

describe('scrobbler proxies: artists, albums, tracks, charts, geo, tags, users', () => {
  let fake: ScrobblerFake;
  let app: TestApp;
  let client: ApiClient;

  before(async () => {
    fake = await startScrobblerFake();
    app = await startTestApp(fake.env);
    ({ client } = await signedInAs(app, 'viewer'));
  });
  beforeEach(() => {
    fake.state.errors.length = 0;
    fake.requests.length = 0;
  });
  after(async () => {
    await app.close();
    await fake.close();
  });

  const calls = (method: string) => fake.requests.filter((r) => r.query.method === method);

  it('given a known artist, when its info is asked, then the scrobbler’s answer comes back in its own shape from an unsigned artist.getInfo', async () => {
    const res = await client.get('/scrobbler/artists/U2/info');
    expect(res.status).to.equal(200);
    expect(res.body.artist.name).to.equal('U2');
    expect(res.body.artist.stats.listeners).to.be.a('string');
    const [sent] = calls('artist.getInfo');
    expect(sent?.method).to.equal('GET');
    expect(sent?.query).to.include({ artist: 'U2', api_key: FAKE_API_KEY, format: 'json', autocorrect: '0' });
    expect(sent?.query).not.to.have.any.keys('sk', 'api_sig');
  });

  it('answers a second identical read from the cache, without asking the scrobbler again', async () => {
    await client.get('/scrobbler/artists/Portishead/top-tracks?limit=2');
    const again = await client.get('/scrobbler/artists/Portishead/top-tracks?limit=2');
    expect(again.status).to.equal(200);
    expect(again.body.toptracks.track).to.have.length(2);
    expect(calls('artist.getTopTracks')).to.have.length(1);
    expect(calls('artist.getTopTracks')[0]?.query).to.include({ artist: 'Portishead', page: '1', limit: '2' });
  });

  it('asks again once the cached answer is older than its time to live', async () => {
    await client.get('/scrobbler/tags/metal/info');
    await app.ctx.db.updateTable('scrobbler_cache').set({ fetched_at: new Date(Date.now() - 7 * 60 * 60 * 1000) }).where('method', '=', 'tag.getInfo').execute();
    const res = await client.get('/scrobbler/tags/metal/info');
    expect(res.status).to.equal(200);
    expect(res.body.tag.name).to.equal('metal');
    expect(calls('tag.getInfo')).to.have.length(2);
  });

  it('passes a name with a slash as one path segment', async () => {
    expect((await client.get('/scrobbler/artists/AC%2FDC/similar')).status).to.equal(200);
    expect(calls('artist.getSimilar')[0]?.query).to.include({ artist: 'AC/DC', limit: '50' });
  });

  it('answers 404 when the scrobbler has nothing there (error 6), and asks again next time', async () => {
    liveState(fake.state).unknownArtists.add('nobody at all');
    const res = await client.get('/scrobbler/artists/Nobody%20At%20All/info');
    expect(res.status).to.equal(404);
    expect(res.body.detail).to.be.a('string');
    await client.get('/scrobbler/artists/Nobody%20At%20All/info');
    expect(calls('artist.getInfo')).to.have.length(2);
  });

  it('answers 404 for a country the scrobbler does not know, and the country chart otherwise', async () => {
    expect((await client.get('/scrobbler/geo/Texas/top-artists')).status).to.equal(404);
    const canada = await client.get('/scrobbler/geo/Canada/top-tracks?page=2&limit=5');
    expect(canada.status).to.equal(200);
    expect(canada.body.tracks.track).to.be.an('array');
    expect(calls('geo.getTopTracks')[0]?.query).to.include({ country: 'Canada', page: '2', limit: '5' });
  });

  it('answers 502 with a detail on an upstream fault, and neither the answer nor the log carries a key or signature', async () => {
    fake.state.inject({ code: 11, method: 'chart.getTopTags', times: 10 });
    const { result: res, log } = await capturedLog(() => client.get('/scrobbler/charts/top-tags'));
    expect(res.status).to.equal(502);
    expect(res.body.detail).to.match(/error 11/);
    for (const secret of [FAKE_API_KEY, FAKE_SECRET, 'api_sig']) {
      expect(JSON.stringify(res.body)).not.to.include(secret);
      expect(log).not.to.include(secret);
    }
  });

  it('passes paging through to the charts with the defaults page 1 and limit 50', async () => {
    const res = await client.get('/scrobbler/charts/top-artists');
    expect(res.status).to.equal(200);
    expect(res.body.artists.artist).to.be.an('array').that.is.not.empty;
    expect(calls('chart.getTopArtists')[0]?.query).to.include({ page: '1', limit: '50' });
  });

  it('searches with the query as the method’s own parameter', async () => {
    const res = await client.get('/scrobbler/tracks/search?q=Hole&artist=65daysofstatic&limit=3');
    expect(res.status).to.equal(200);
    expect(res.body.results.trackmatches.track).to.have.length(3);
    expect(calls('track.search')[0]?.query).to.include({ track: 'Hole', artist: '65daysofstatic', limit: '3', page: '1' });
    expect((await client.get('/scrobbler/albums/search')).status).to.equal(422);
  });

  it('keeps an unknown tag’s empty chart a 200, as the scrobbler answers it', async () => {
    const res = await client.get('/scrobbler/tags/thistagdoesntexist/top-artists');
    expect(res.status).to.equal(200);
    expect(res.body.topartists.artist).to.deep.equal([]);
  });

  it('reads another scrobbler user’s public profile, and 404 for an unknown user', async () => {
    fake.state.addUser('TyphoonsNotABot', listHistory([]));
    const info = await client.get('/scrobbler/users/TyphoonsNotABot/info');
    expect(info.status).to.equal(200);
    expect(info.body.user.name).to.equal('TyphoonsNotABot');
    expect((await client.get('/scrobbler/users/nobody-here/top-artists?period=7day')).status).to.equal(404);
    expect(calls('user.getTopArtists')[0]?.query).to.include({ user: 'nobody-here', period: '7day' });
  });

  it('refuses a caller without a session (401) and answers 503 when the scrobbler is not configured', async () => {
    expect((await app.client().get('/scrobbler/artists/U2/info')).status).to.equal(401);
    const bare = await startTestApp();
    try {
      const { client: c } = await signedInAs(bare, 'viewer');
      expect((await c.get('/scrobbler/charts/top-tracks')).status).to.equal(503);
    } finally {
      await bare.close();
    }
  });
});
