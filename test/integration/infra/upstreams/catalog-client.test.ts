import { expect } from 'chai';
import { loadConfig } from '../../../../infra/config.ts';
import { DEFAULT_USER_AGENT } from '../../../../infra/upstreams/http-client.ts';
import { catalogClient, createCatalogClient, type CatalogClient } from '../../../../infra/upstreams/catalog/client.ts';
import { UpstreamError, UpstreamNotFound } from '../../../../shared/errors.ts';
import { albumPayload, artistPayload, trackPayload } from '../../../fakes/catalog/builders.ts';
import { type CatalogFake, startCatalogFake } from '../../../fakes/catalog/server.ts';

async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('catalog client against the fake catalog', () => {
  let fake: CatalogFake;
  let client: CatalogClient;
  beforeEach(async () => {
    fake = await startCatalogFake({ maxLimit: 4 });
    client = createCatalogClient({ baseUrl: fake.url, retryBaseMs: 5 });
  });
  afterEach(() => fake.close());

  it('reads an artist by id, with the project User-Agent', async () => {
    const artist = await client.artist(27);
    expect(artist).to.include({ id: 27, name: 'Daft Punk', nb_album: 32 });
    expect(fake.requests).to.have.length(1);
    expect(fake.requests[0]).to.include({ method: 'GET', path: '/artist/27' });
    expect(fake.requests[0]!.headers['user-agent']).to.equal(DEFAULT_USER_AGENT);
  });

  it('reads a track with its ISRC, album and artist', async () => {
    const track = await client.track('3135556');
    expect(track).to.include({ title: 'Harder Better Faster Stronger', isrc: 'GBDUW0000059', track_position: 4 });
    expect(track.album).to.include({ id: 302127, title: 'Discovery' });
  });

  it('finds a track by ISRC and an album by UPC', async () => {
    expect((await client.trackByIsrc('USUM72409273')).id).to.equal(2947516331);
    expect((await client.albumByUpc('602475093060')).id).to.equal(629506181);
    expect(fake.requests.map((r) => r.path)).to.deep.equal(['/track/isrc:USUM72409273', '/album/upc:602475093060']);
    expect(await caught(client.trackByIsrc('XX0000000000'))).to.be.instanceOf(UpstreamNotFound);
  });

  it('walks every page of a tracklist', async () => {
    const artist = artistPayload(900001, 'Long Player');
    const album = albumPayload(900002, 'Eleven', artist, { nb_tracks: 11 });
    fake.addAlbum(album, Array.from({ length: 11 }, (_, i) => trackPayload(900100 + i, `Song ${i + 1}`, artist, album, [1, i + 1])));
    const { album: got, tracks } = await client.albumWithTracks(900002);
    expect(got).to.include({ title: 'Eleven', upc: '000000900002' });
    expect(tracks.map((t) => t.track_position)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(tracks[0]).to.include({ isrc: 'TEST00900100', disk_number: 1 });
    const pages = fake.requestsTo('/album/900002/tracks').map((r) => r.query.index);
    expect(pages).to.deep.equal(['0', '4', '8']);
  });

  it('sends the search query and paging', async () => {
    const page = await client.searchArtists('daft', { index: 0, limit: 10 });
    expect(page.data.map((a) => a.name)).to.deep.equal(['Daft Punk']);
    expect(fake.requests[0]).to.deep.include({ path: '/search/artist', query: { q: 'daft', index: '0', limit: '10' } });
  });

  it('searches tracks and albums, and reads related artists', async () => {
    expect((await client.searchTracks('digital')).data.map((t) => t.id)).to.deep.equal([3135555]);
    expect((await client.searchAlbums('discovery')).data.map((a) => a.title)).to.deep.equal(['Discovery']);
    const related = await client.relatedArtists(27, { limit: 2 });
    expect(related.data.map((a) => a.name)).to.deep.equal(['Justice', 'Kavinsky']);
    expect(related.total).to.equal(5);
    expect(related.next).to.match(/index=2/);
    expect(fake.requests.map((r) => r.path)).to.deep.equal(['/search', '/search/album', '/artist/27/related']);
  });

  it('"no data" is nothing there: UpstreamNotFound, asked once', async () => {
    const error = await caught(client.track(1));
    expect(error).to.be.instanceOf(UpstreamNotFound);
    expect(fake.requests).to.have.length(1);
  });

  it('a quota answer is a fault worth retrying: asked again, then answered', async () => {
    fake.failNext('quota', 'busy');
    expect((await client.artist(27)).name).to.equal('Daft Punk');
    expect(fake.requests).to.have.length(3);
  });

  it('a quota answer that never clears is an UpstreamError after the retries', async () => {
    fake.failNext('quota', 'quota', 'quota', 'quota', 'quota');
    const error = await caught(client.artist(27));
    expect(error).to.be.instanceOf(UpstreamError);
    expect(error.message).to.contain('Quota limit exceeded');
    expect(fake.requests).to.have.length(4);
  });

  it('a parameter error is a fault, not retried', async () => {
    fake.failNext('wrong-parameter');
    const error = await caught(client.artist(27));
    expect(error).to.be.instanceOf(UpstreamError).and.not.instanceOf(UpstreamNotFound);
    expect(fake.requests).to.have.length(1);
  });

  it('an answer of an unexpected shape is an UpstreamError naming where', async () => {
    fake.addArtist({ id: 900003, name: 42 });
    const error = await caught(client.artist(900003));
    expect(error).to.be.instanceOf(UpstreamError);
    expect(error.message).to.contain('at name');
  });

  it('with real pacing, one process spaces its requests', async () => {
    const paced = catalogClient(loadConfig({ CATALOG_API_URL: fake.url, UPSTREAM_PACING: 'real' }));
    await Promise.all([paced.artist(27), paced.artist(27), paced.artist(27)]);
    const at = fake.requests.map((r) => r.at).sort((a, b) => a - b);
    expect(at[2]! - at[0]!).to.be.at.least(180);
  });
});
