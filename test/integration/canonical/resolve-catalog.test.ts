import { expect } from 'chai';
import type { ApiClient, TestApp } from '../../support/api.ts';
import { startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { type CatalogFake, startCatalogFake } from '../../fakes/catalog/server.ts';
import { albumPayload, artistPayload, trackPayload } from '../../fakes/catalog/builders.ts';
import { reconcile } from '../../../command/canonical/reconciler.ts';

const refsOf = (doc: { refs: { source: string; external_id: string }[] }, source: string) => doc.refs.filter((r) => r.source === source).map((r) => r.external_id);

describe('resolve by catalog id', () => {
  let catalog: CatalogFake;
  let app: TestApp;
  let viewer: ApiClient;
  before(async () => {
    catalog = await startCatalogFake();
    app = await startTestApp({ CATALOG_API_URL: catalog.url });
    viewer = (await signedInAs(app, 'viewer')).client;
  });
  after(async () => {
    await app.close();
    await catalog.close();
  });
  beforeEach(() => catalog.clearRequests());

  describe('given an album only the catalog knows', () => {
    it('when it is resolved, then the album is seeded with its artist and every track', async () => {
      const res = await viewer.get('/albums/resolve?catalog=302127');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ title: 'Discovery', upc: '724384960650', year: 2001, artist_name: 'Daft Punk', primary_type: 'Album' });
      expect(res.body.genres).to.include('dance');
      expect(refsOf(res.body, 'catalog')).to.deep.equal(['302127']);
      expect(catalog.requests.map((r) => r.path)).to.deep.equal(['/album/302127', '/album/302127/tracks']);

      const tracks = (await viewer.get(`/albums/${res.body.id}/tracks`)).body;
      expect(tracks.map((t: { title: string }) => t.title)).to.deep.equal(['One More Time', 'Aerodynamic', 'Digital Love', 'Harder Better Faster Stronger', 'Crescendolls']);
      expect(tracks[0]).to.include({ catalog_id: '3135553', track_number: 1, disc: 1 });
      expect(tracks[0].preview_url).to.match(/^https:\/\/cdns-preview/);
      const artist = (await viewer.get(`/artists/${res.body.artist_id}`)).body;
      expect(refsOf(artist, 'catalog')).to.deep.equal(['27']);
      expect(artist.picture).to.match(/1000x1000/);
      const history = (await viewer.get(`/artists/${res.body.artist_id}/history`)).body;
      expect(history.filter((e: { type: string }) => e.type === 'FactsObserved')).to.have.length(1);
    });

    it('when it is resolved again, then no request reaches the catalog', async () => {
      const first = await viewer.get('/albums/resolve?catalog=302127');
      catalog.clearRequests();
      const second = await viewer.get('/albums/resolve?catalog=302127');
      expect(second.body.id).to.equal(first.body.id);
      expect(catalog.requests).to.have.length(0);
    });

    it('then a track of it resolves locally, with its ISRC', async () => {
      await viewer.get('/albums/resolve?catalog=302127');
      catalog.clearRequests();
      const res = await viewer.get('/tracks/resolve?catalog=3135556');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ title: 'Harder Better Faster Stronger', isrc: 'GBDUW0000059', catalog_id: '3135556', duration_ms: 224_000 });
      expect(catalog.requests).to.have.length(0);
    });
  });

  describe('given a track only the catalog knows', () => {
    it('when it is resolved, then its whole album comes with it, and the album then resolves locally', async () => {
      const artist = artistPayload(940001, 'Laika');
      const album = albumPayload(940002, 'Sounds of the Satellites', artist, { genres: { data: [{ id: 85, name: 'Alternative' }] } });
      catalog.addAlbum(album, [1, 2, 3].map((n) => trackPayload(940010 + n, `Song ${n}`, artist, album, [1, n])));
      const track = await viewer.get('/tracks/resolve?catalog=940012');
      expect(track.status).to.equal(200);
      expect(track.body).to.include({ title: 'Song 2', track_number: 2, album_title: 'Sounds of the Satellites', artist_name: 'Laika' });
      catalog.clearRequests();
      const res = await viewer.get('/albums/resolve?catalog=940002');
      expect(res.body).to.include({ id: track.body.album_id, upc: '000000940002' });
      expect(res.body.genres).to.deep.equal(['alternative']);
      expect((await viewer.get(`/albums/${res.body.id}/tracks`)).body.map((t: { title: string }) => t.title)).to.deep.equal(['Song 1', 'Song 2', 'Song 3']);
      expect(catalog.requests).to.have.length(0);
    });
  });

  describe('given a track the mediaserver already has', () => {
    it('when it is resolved by catalog id, then the catalog ref joins it by ISRC', async () => {
      const artist = artistPayload(910001, 'Stereolab');
      const album = albumPayload(910002, 'Dots and Loops', artist);
      catalog.addAlbum(album, [trackPayload(910003, 'Brakhage', artist, album, [1, 1], { isrc: 'GBAAA9700001' })]);
      const byArtist = { source: 'mediaserver' as const, kind: 'artist' as const, external_id: 'mediaserver::srv::a1', facts: { name: 'Stereolab' } };
      const byAlbum = { source: 'mediaserver' as const, kind: 'album' as const, external_id: 'mediaserver::srv::b1', facts: { name: 'Dots and Loops' }, artist: byArtist };
      const local = await reconcile(app.ctx, { source: 'mediaserver', kind: 'track', external_id: 'mediaserver::srv::t1', facts: { name: 'Brakhage', isrc: 'GBAAA9700001' }, artist: byArtist, album: byAlbum });

      const res = await viewer.get('/tracks/resolve?catalog=910003');
      expect(res.status).to.equal(200);
      expect(res.body.id).to.equal(local);
      expect(res.body.sources).to.include({ mediaserver: true, catalog: true });
      expect(res.body).to.include({ catalog_id: '910003', preview_url: 'https://cdnt-preview.dzcdn.net/api/1/1/910003.mp3' });
    });
  });

  describe('given two clients asking for the same new album at once', () => {
    it('when both resolve it, then one entity is seeded from one fetch', async () => {
      const artist = artistPayload(920001, 'Broadcast');
      const album = albumPayload(920002, 'Tender Buttons', artist);
      catalog.addAlbum(album, [trackPayload(920003, 'I Found the F', artist, album, [1, 1])]);
      const [a, b] = await Promise.all([viewer.get('/albums/resolve?catalog=920002'), viewer.get('/albums/resolve?catalog=920002')]);
      expect([a.status, b.status]).to.deep.equal([200, 200]);
      expect(a.body.id).to.equal(b.body.id);
      expect(catalog.requests.map((r) => r.path)).to.deep.equal(['/album/920002', '/album/920002/tracks']);
    });
  });

  describe('given a catalog ref unlinked from its canonical', () => {
    it('when it is resolved again, then the cached payload seeds it without a request', async () => {
      const artist = await viewer.get('/artists/resolve?catalog=6404');
      expect(artist.status).to.equal(200);
      expect(catalog.requests.map((r) => r.path)).to.deep.equal(['/artist/6404']);
      catalog.clearRequests();
      const admin = (await signedInAs(app, 'admin')).client;
      const unlink = await admin.delete(`/artists/${artist.body.id}/refs/catalog/6404`);
      expect(unlink.status).to.equal(200);
      const again = await viewer.get('/artists/resolve?catalog=6404');
      expect(again.status).to.equal(200);
      expect(again.body).to.include({ name: 'Justice' });
      expect(refsOf(again.body, 'catalog')).to.deep.equal(['6404']);
      expect(catalog.requests).to.have.length(0);
    });
  });

  describe('given an id the catalog does not have', () => {
    it('when it is resolved, then 404 and nothing is seeded', async () => {
      const res = await viewer.get('/tracks/resolve?catalog=999999');
      expect(res.status).to.equal(404);
      expect(res.body.detail).to.be.a('string');
      expect(catalog.requests.map((r) => r.path)).to.deep.equal(['/track/999999']);
      const check = await viewer.post('/tracks/refs/check', { refs: [{ source: 'catalog', external_id: '999999' }] });
      expect(check.body.results[0].canonical_id).to.equal(null);
    });

    it('when the id is not a catalog id at all, then 404 without asking the catalog', async () => {
      const res = await viewer.get('/artists/resolve?catalog=not-a-number');
      expect(res.status).to.equal(404);
      expect(catalog.requests).to.have.length(0);
    });
  });

  describe('given a catalog that fails', () => {
    it('when it keeps answering over quota, then 502 with a plain detail', async () => {
      catalog.failNext('quota', 'quota', 'quota', 'quota');
      const res = await viewer.get('/tracks/resolve?catalog=2947516331');
      expect(res.status).to.equal(502);
      expect(res.body).to.have.keys('detail');
      expect(res.body.detail).to.be.a('string').and.not.match(/at .*\.ts|127\.0\.0\.1/);
      expect(catalog.requests).to.have.length(4);
    });

    it('when a quota answer passes, then the retry seeds it', async () => {
      catalog.failNext('quota');
      const res = await viewer.get('/tracks/resolve?catalog=2947516331');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ title: 'Die With A Smile', isrc: 'USUM72409273', album_title: 'Die With A Smile' });
      expect(catalog.requests.map((r) => r.path)).to.deep.equal(['/track/2947516331', '/track/2947516331', '/album/629506181', '/album/629506181/tracks']);
    });

    it('when it answers a server error, then 502', async () => {
      catalog.failNext({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
      const res = await viewer.get('/artists/resolve?catalog=13358');
      expect(res.status).to.equal(502);
      expect(catalog.requests).to.have.length(4);
      expect((await viewer.get('/artists/resolve?catalog=13358')).body.name).to.equal('Kavinsky');
    });
  });
});
