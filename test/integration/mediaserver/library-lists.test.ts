import { expect } from 'chai';
import type { ApiClient } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { type MediaserverWorld, startWorld } from './world.ts';

type Row = { rating_key: string; kind: string };

describe('mediaserver: library lists, whole or paged', () => {
  let world: MediaserverWorld;
  let viewer: ApiClient;
  before(async () => {
    // 60 generated tracks plus the 3 recorded ones: past the old silent cap of 50.
    world = await startWorld((fake) => void fake.library.generate({ artists: 3, albumsPerArtist: 2, tracksPerAlbum: 10 }));
    await world.sync();
    viewer = (await signedInAs(world.app, 'viewer')).client;
  });
  after(() => world.close());

  const keys = (rows: Row[]) => rows.map((r) => r.rating_key);

  it('given no paging parameters, then every row comes back, streamed, without a total', async () => {
    const res = await viewer.get('/mediaserver/libraries/5/tracks');
    expect(res.status).to.equal(200);
    expect(res.body).to.have.length(63);
    expect(res.body.every((r: Row) => r.kind === 'track')).to.equal(true);
    expect(new Set(keys(res.body)).size).to.equal(63);
    expect(res.headers.get('content-length')).to.equal(null);
    expect(res.headers.get('x-total-count')).to.equal(null);
  });

  it('given paging parameters, then that page and X-Total-Count, in the order of the whole list', async () => {
    const whole = keys((await viewer.get('/mediaserver/libraries/5/tracks')).body);
    const pages: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const res = await viewer.get(`/mediaserver/libraries/5/tracks?page=${page}&page_size=20`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-total-count')).to.equal('63');
      pages.push(...keys(res.body));
    }
    expect(pages).to.deep.equal(whole);
    const albums = keys((await viewer.get('/mediaserver/libraries/5/albums')).body);
    const first = await viewer.get('/mediaserver/libraries/5/albums?page=1');
    expect([keys(first.body), first.headers.get('x-total-count')]).to.deep.equal([albums, String(albums.length)]);
    const artists = keys((await viewer.get('/mediaserver/libraries/5/artists')).body);
    const sized = await viewer.get('/mediaserver/libraries/5/artists?page_size=2');
    expect([keys(sized.body), sized.headers.get('x-total-count')]).to.deep.equal([artists.slice(0, 2), String(artists.length)]);
    const past = await viewer.get('/mediaserver/libraries/5/tracks?page=9&page_size=20', { origin: 'http://localhost:5173' });
    expect([past.body, past.headers.get('x-total-count')]).to.deep.equal([[], '63']);
    expect(past.headers.get('access-control-expose-headers'), 'readable by the client on its own origin').to.contain('X-Total-Count');
  });

  it('given an empty list or another kind, then an empty array, streamed or paged', async () => {
    for (const kind of ['movies', 'shows', 'seasons', 'episodes']) {
      const res = await viewer.get(`/mediaserver/libraries/5/${kind}`);
      expect([res.status, res.body]).to.deep.equal([200, []]);
    }
    expect((await viewer.get('/mediaserver/libraries/nope/albums?page=1')).headers.get('x-total-count')).to.equal('0');
  });

  it('refuses paging parameters out of range with 422, and documents them and the total', async () => {
    expect((await viewer.get('/mediaserver/libraries/5/tracks?page=0')).status).to.equal(422);
    expect((await viewer.get('/mediaserver/libraries/5/tracks?page_size=501')).status).to.equal(422);
    const operation = (await viewer.get('/openapi.json')).body.paths['/mediaserver/libraries/{section_id}/tracks'].get;
    expect(operation.parameters.map((p: { name: string }) => p.name)).to.include.members(['page', 'page_size', 'include_deleted']);
    expect(operation.parameters.find((p: { name: string }) => p.name === 'page').description).to.contain('whole list');
    expect(operation.responses['200'].headers['X-Total-Count'].schema).to.deep.equal({ type: 'integer' });
  });
});
