import { expect } from 'chai';
import type { ApiClient, TestApp } from '../../support/api.ts';
import { startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { type CatalogFake, startCatalogFake } from '../../fakes/catalog/server.ts';
import { givenAlbum, givenMusic } from './entities.ts';

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe('me: favorites', () => {
  let catalog: CatalogFake;
  let app: TestApp;
  let admin: ApiClient;
  let viewer: ApiClient;
  let music: Awaited<ReturnType<typeof givenMusic>>;
  before(async () => {
    catalog = await startCatalogFake();
    app = await startTestApp({ CATALOG_API_URL: catalog.url });
    admin = await signedInAdmin(app);
    viewer = (await signedInAs(app, 'viewer')).client;
    music = await givenMusic(app, 'Favorite Band');
  });
  after(async () => {
    await app.close();
    await catalog.close();
  });

  for (const [plural, key] of [['artists', 'artistId'], ['albums', 'albumId'], ['tracks', 'trackId']] as const) {
    describe(`given a canonical ${plural.slice(0, -1)}`, () => {
      it('when it is added, then it is listed with its canonical fields and added time', async () => {
        const id = music[key];
        const added = await viewer.post(`/me/favorites/${plural}`, { canonical_id: id });
        expect(added.status).to.equal(200);
        expect(added.body).to.include({ id, canonical_id: id, playable: true });
        expect(added.body.sources).to.include({ mediaserver: true });
        expect(added.body.added_at).to.be.a('string');
        const listed = await viewer.get(`/me/favorites/${plural}`);
        expect(listed.status).to.equal(200);
        expect(ids(listed.body)).to.deep.equal([id]);
        expect(listed.body[0]).to.include.keys('sources', 'playable', 'year', 'cover_url', 'artist_name', 'added_at');
      });

      it('when it is added twice, then it is listed once and the first added time stays', async () => {
        const id = music[key];
        const first = (await viewer.get(`/me/favorites/${plural}`)).body[0];
        const again = await viewer.post(`/me/favorites/${plural}`, { canonical_id: id });
        expect(again.status).to.equal(200);
        expect(again.body.added_at).to.equal(first.added_at);
        expect(ids((await viewer.get(`/me/favorites/${plural}`)).body)).to.deep.equal([id]);
      });

      it('when it is removed, then it is gone, and removing again changes nothing', async () => {
        const id = music[key];
        const removed = await viewer.delete(`/me/favorites/${plural}/${id}`);
        expect(removed.status).to.equal(200);
        expect(removed.body).to.deep.equal({ kind: plural.slice(0, -1), canonical_id: id, removed: true });
        expect((await viewer.get(`/me/favorites/${plural}`)).body).to.deep.equal([]);
        expect((await viewer.delete(`/me/favorites/${plural}/${id}`)).body.removed).to.equal(false);
      });
    });
  }

  it('lists the newest first', async () => {
    const a = await givenMusic(app);
    const b = await givenMusic(app);
    await viewer.post('/me/favorites/tracks', { canonical_id: a.trackId });
    await viewer.post('/me/favorites/tracks', { canonical_id: b.trackId });
    expect(ids((await viewer.get('/me/favorites/tracks')).body)).to.deep.equal([b.trackId, a.trackId]);
    await viewer.delete(`/me/favorites/tracks/${a.trackId}`);
    await viewer.delete(`/me/favorites/tracks/${b.trackId}`);
  });

  it('refuses a body with neither id (422), an unknown id (404), and an id of another kind (404)', async () => {
    const neither = await viewer.post('/me/favorites/albums', {});
    expect(neither.status).to.equal(422);
    expect(neither.body.detail[0].loc[0]).to.equal('body');
    expect((await viewer.post('/me/favorites/albums', { canonical_id: null, catalog_id: null })).status).to.equal(422);
    expect((await viewer.post('/me/favorites/albums', { canonical_id: '01HZZZZZZZZZZZZZZZZZZZZZZZ' })).status).to.equal(404);
    expect((await viewer.post('/me/favorites/albums', { canonical_id: music.trackId })).status).to.equal(404);
    expect((await viewer.delete('/me/favorites/albums/01HZZZZZZZZZZZZZZZZZZZZZZZ')).status).to.equal(404);
  });

  it('a single-track favorite and its removal are FavoriteAdded / FavoriteRemoved events in the log', async () => {
    const { username, client } = await signedInAs(app, 'viewer');
    const t = await givenMusic(app);
    await client.post('/me/favorites/tracks', { canonical_id: t.trackId });
    await client.post('/me/favorites/tracks', { canonical_id: t.trackId });
    await client.delete(`/me/favorites/tracks/${t.trackId}`);
    const events = (await app.ctx.store.readStream(`favorite-${username}.track.${t.trackId}`)).map((e) => ({ type: e.type, data: e.data }));
    expect(events.map((e) => e.type)).to.deep.equal(['FavoriteAdded', 'FavoriteRemoved']);
    expect(events[0]!.data).to.include({ username, kind: 'track', canonical_id: t.trackId });
    expect(events[0]!.data).to.have.property('at');
  });

  it('five simultaneous adds of one favorite record it once', async () => {
    const { username, client } = await signedInAs(app, 'viewer');
    const t = await givenMusic(app);
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => client.post('/me/favorites/tracks', { canonical_id: t.trackId })));
    expect(answers.map((r) => r.status)).to.deep.equal([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((r) => r.body.added_at)).size).to.equal(1);
    expect((await app.ctx.store.readStream(`favorite-${username}.track.${t.trackId}`)).map((e) => e.type)).to.deep.equal(['FavoriteAdded']);
  });

  describe('given a catalog id only', () => {
    it('when a track is added by catalog id, then the canonical is seeded from the catalog and favorited', async () => {
      const res = await viewer.post('/me/favorites/tracks', { catalog_id: 3135556 });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ title: 'Harder Better Faster Stronger', catalog_id: '3135556' });
      expect(ids((await viewer.get('/me/favorites/tracks')).body)).to.include(res.body.id);
    });

    it('when an album is wished for by catalog id twice, then the catalog is asked once and the album is listed once', async () => {
      catalog.clearRequests();
      const first = await viewer.post('/me/albums/wishlist', { catalog_id: '302127' });
      expect(first.status).to.equal(200);
      expect(first.body).to.include({ title: 'Discovery', status: 'wishlisted' });
      const requests = catalog.requests.length;
      const second = await viewer.post('/me/albums/wishlist', { catalog_id: 302127 });
      expect(second.body.id).to.equal(first.body.id);
      expect(catalog.requests.length).to.equal(requests);
      expect(ids((await viewer.get('/me/albums/wishlist')).body).filter((id) => id === first.body.id)).to.have.length(1);
    });

    it('when the catalog has nothing under the id, then 404; when it fails, then 502', async () => {
      expect((await viewer.post('/me/favorites/artists', { catalog_id: 999999999 })).status).to.equal(404);
      catalog.failNext({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
      const failed = await viewer.post('/me/favorites/artists', { catalog_id: 13358 });
      expect(failed.status).to.equal(502);
      expect((await viewer.get('/me/favorites/artists')).body.map((r: { name: string }) => r.name)).to.not.include('Kavinsky');
    });

    it('a known canonical id wins over the catalog id; an unknown one falls back to it', async () => {
      const a = await givenMusic(app);
      catalog.clearRequests();
      const res = await viewer.post('/me/favorites/artists', { canonical_id: a.artistId, catalog_id: 27 });
      expect(res.body.id).to.equal(a.artistId);
      expect(catalog.requests).to.have.length(0);
      const fallback = await viewer.post('/me/favorites/artists', { canonical_id: '01HZZZZZZZZZZZZZZZZZZZZZZZ', catalog_id: 27 });
      expect(fallback.status).to.equal(200);
      expect(fallback.body).to.include({ name: 'Daft Punk' });
    });
  });

  describe('merge chains', () => {
    it('favorites of merged-away albums answer the end of the chain, once, with the earliest added time', async () => {
      const { client } = await signedInAs(app, 'viewer');
      const [a, b, c] = [await givenAlbum(app, 'Chain A', 'mb-fav-a'), await givenAlbum(app, 'Chain B', 'mb-fav-b'), await givenAlbum(app, 'Chain C', 'mb-fav-c')];
      const first = await client.post('/me/favorites/albums', { canonical_id: a });
      await client.post('/me/favorites/albums', { canonical_id: c });
      expect((await admin.post(`/admin/canonical/albums/${b}/merge`, { source_id: a })).status).to.equal(200);
      expect((await admin.post(`/admin/canonical/albums/${c}/merge`, { source_id: b })).status).to.equal(200);
      const listed = (await client.get('/me/favorites/albums')).body;
      expect(ids(listed)).to.deep.equal([c]);
      expect(listed[0].added_at).to.equal(first.body.added_at);
      expect(listed[0]).to.include({ tombstoned: false, merged_into: null });
    });

    it('writes through a merged-away id act on the end of the chain', async () => {
      const { client } = await signedInAs(app, 'viewer');
      const [a, b] = [await givenAlbum(app, 'Write A', 'mb-w-a'), await givenAlbum(app, 'Write B', 'mb-w-b')];
      await admin.post(`/admin/canonical/albums/${b}/merge`, { source_id: a });
      const added = await client.post('/me/favorites/albums', { canonical_id: a });
      expect(added.body.id).to.equal(b);
      expect((await client.post('/me/favorites/albums', { canonical_id: b })).body.added_at).to.equal(added.body.added_at);
      expect(ids((await client.get('/me/favorites/albums')).body)).to.deep.equal([b]);
      const removed = await client.delete(`/me/favorites/albums/${a}`);
      expect(removed.body).to.include({ canonical_id: b, removed: true });
      expect((await client.get('/me/favorites/albums')).body).to.deep.equal([]);
    });

    it('a favorite recorded under an id merged later is removed through the end id, and the rows are re-keyed', async () => {
      const { client, username } = await signedInAs(app, 'viewer');
      const [a, b] = [await givenAlbum(app, 'Rekey A', 'mb-rk-a'), await givenAlbum(app, 'Rekey B', 'mb-rk-b')];
      await client.post('/me/favorites/albums', { canonical_id: a });
      await client.post('/me/favorites/albums', { canonical_id: b });
      await admin.post(`/admin/canonical/albums/${b}/merge`, { source_id: a });
      const rows = await app.ctx.db.selectFrom('favorites').select(['recorded_id', 'canonical_id']).where('username_key', '=', username).orderBy('recorded_id').execute();
      expect(rows.map((r) => r.canonical_id)).to.deep.equal([b, b]);
      expect(ids((await client.get('/me/favorites/albums')).body)).to.deep.equal([b]);
      expect((await client.delete(`/me/favorites/albums/${b}`)).body.removed).to.equal(true);
      expect((await client.get('/me/favorites/albums')).body).to.deep.equal([]);
      expect((await client.post('/me/favorites/albums', { canonical_id: b })).status).to.equal(200);
      expect(ids((await client.get('/me/favorites/albums')).body)).to.deep.equal([b]);
    });
  });
});
