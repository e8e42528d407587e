import { expect } from 'chai';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { type ScrobblerFake, startScrobblerFake } from '../../fakes/scrobbler/server.ts';

const q = (id: string) => `scrobbler=${encodeURIComponent(id)}`;

describe('canonical resolve with scrobbler=', () => {
  let fake: ScrobblerFake;
  let app: TestApp;
  let client: ApiClient;

  before(async () => {
    fake = await startScrobblerFake();
    fake.state.addAlbum({ artist: 'Cher', name: 'Believe', mbid: '03c91c40-49a6-44a7-90e7-a700edf97a62' });
    fake.state.addTrack({ artist: 'Cher', name: 'Strong Enough', mbid: '2a1b3c4d-0000-4000-8000-000000000001', album: 'Believe' });
    app = await startTestApp(fake.env);
    ({ client } = await signedInAs(app, 'viewer'));
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });
  after(async () => {
    await app.close();
    await fake.close();
  });

  it('fetches an unknown album, reconciles it under its artist, and resolves it; the second time from the canonical layer', async () => {
    const res = await client.get(`/albums/resolve?${q('Cher::Believe')}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ kind: 'album', title: 'Believe', artist_name: 'Cher', mbid: '03c91c40-49a6-44a7-90e7-a700edf97a62' });
    expect(res.body.refs).to.deep.include({ source: 'scrobbler', external_id: 'Cher::Believe' });
    expect(fake.requests.map((r) => r.query.method)).to.deep.equal(['album.getInfo']);
    const artist = await client.get(`/artists/resolve?${q('cher')}`);
    expect(artist.body.id).to.equal(res.body.artist_id);
    fake.requests.length = 0;
    const again = await client.get(`/albums/resolve?${q('Cher::Believe')}`);
    expect(again.body.id).to.equal(res.body.id);
    expect(fake.requests).to.deep.equal([]);
  });

  it('resolves a track with the album the scrobbler reports', async () => {
    const res = await client.get(`/tracks/resolve?${q('Cher::Strong Enough')}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ kind: 'track', title: 'Strong Enough', artist_name: 'Cher', album_title: 'Believe', duration_ms: 215000 });
    const album = await client.get(`/albums/resolve?${q('Cher::Believe')}`);
    expect(res.body.album_id).to.equal(album.body.id);
  });

  it('answers 404 for an album the scrobbler does not know, and for an id without the <artist>::<name> shape', async () => {
    expect((await client.get(`/albums/resolve?${q('Cher::No Such Album')}`)).status).to.equal(404);
    expect((await client.get(`/albums/resolve?${q('just a name')}`)).status).to.equal(404);
    expect(fake.requests.filter((r) => r.query.album === 'just a name')).to.deep.equal([]);
  });

  it('passes an upstream failure on as 502, not a crash', async () => {
    fake.state.inject({ code: 26, method: 'album.getInfo', message: 'Suspended API key' });
    const res = await client.get(`/albums/resolve?${q('Cher::Another')}`);
    expect(res.status).to.equal(502);
    expect(res.body.detail).to.include('26');
  });
});
