import { expect } from 'chai';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { type ScrobblerFake, startScrobblerFake } from '../../fakes/scrobbler/server.ts';

describe('scrobbler picker search: /scrobbler/picker/search', () => {
  let fake: ScrobblerFake;
  let app: TestApp;
  let client: ApiClient;

  before(async () => {
    fake = await startScrobblerFake();
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

  it('given defaults, asks page 1 of 20 and answers artist rows with the lowercased name as id', async () => {
    const res = await client.get('/scrobbler/picker/search?kind=artist&q=Rammstein');
    expect(res.status).to.equal(200);
    expect(res.body).to.have.length(20);
    expect(res.body[0]).to.deep.equal({ external_id: 'rammstein 1', title: 'Rammstein 1', subtitle: '1,000 listeners', thumbnail: null });
    expect(res.body[1].thumbnail).to.equal('https://images.invalid/i/u/extralarge/1.png');
    expect(fake.requests[0]?.query).to.include({ method: 'artist.search', artist: 'Rammstein', page: '1', limit: '20' });
  });

  it('asks the upstream page offset // limit + 1', async () => {
    await client.get('/scrobbler/picker/search?kind=track&q=Hole&limit=10&offset=25');
    expect(fake.requests[0]?.query).to.include({ method: 'track.search', track: 'Hole', page: '3', limit: '10' });
  });

  it('answers album and track rows with `<artist>::<name>` ids and the artist as subtitle', async () => {
    const res = await client.get('/scrobbler/picker/search?kind=album&q=Believe&limit=2');
    expect(res.body).to.deep.equal([
      { external_id: 'Artist 1::Believe 1', title: 'Believe 1', subtitle: 'Artist 1', thumbnail: null },
      { external_id: 'Artist 2::Believe 2', title: 'Believe 2', subtitle: 'Artist 2', thumbnail: 'https://images.invalid/i/u/extralarge/1.png' },
    ]);
  });

  it('answers an empty list past the last match', async () => {
    const res = await client.get('/scrobbler/picker/search?kind=artist&q=x&limit=50&offset=200');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal([]);
  });

  it('refuses an unknown kind or a missing query with 422', async () => {
    expect((await client.get('/scrobbler/picker/search?kind=label&q=x')).status).to.equal(422);
    expect((await client.get('/scrobbler/picker/search?kind=artist')).status).to.equal(422);
  });
});
