import { expect } from 'chai';
import type { ApiClient, TestApp } from '../../support/api.ts';
import { startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { givenAlbum, givenMusic } from './entities.ts';

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe('me: album wishlist and owned list', () => {
  let app: TestApp;
  let admin: ApiClient;
  before(async () => {
    app = await startTestApp();
    admin = await signedInAdmin(app);
  });
  after(() => app.close());

  describe('given an album on the wishlist', () => {
    let client: ApiClient;
    let albumId: string;
    let wished: { wishlisted_at: string };
    before(async () => {
      client = (await signedInAs(app, 'viewer')).client;
      albumId = (await givenMusic(app)).albumId;
      const res = await client.post('/me/albums/wishlist', { canonical_id: albumId });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ id: albumId, status: 'wishlisted', owned_at: null });
      wished = res.body;
    });

    it('then it is listed on the wishlist with its canonical fields, and not as owned', async () => {
      const wishlist = (await client.get('/me/albums/wishlist')).body;
      expect(ids(wishlist)).to.deep.equal([albumId]);
      expect(wishlist[0]).to.include({ wishlisted_at: wished.wishlisted_at, added_at: wished.wishlisted_at, playable: true });
      expect(wishlist[0]).to.include.keys('title', 'artist_name', 'year', 'cover_url', 'sources');
      expect((await client.get('/me/albums/owned')).body).to.deep.equal([]);
    });

    it('when it is wished for again, then nothing changes', async () => {
      const again = await client.post('/me/albums/wishlist', { canonical_id: albumId });
      expect(again.body.wishlisted_at).to.equal(wished.wishlisted_at);
      expect(ids((await client.get('/me/albums/wishlist')).body)).to.deep.equal([albumId]);
    });

    it('when it is marked owned, then it moves to the owned list and keeps wishlisted_at', async () => {
      const owned = await client.post('/me/albums/owned', { canonical_id: albumId });
      expect(owned.status).to.equal(200);
      expect(owned.body).to.include({ id: albumId, status: 'owned', wishlisted_at: wished.wishlisted_at });
      expect(owned.body.owned_at).to.be.a('string');
      expect((await client.get('/me/albums/wishlist')).body).to.deep.equal([]);
      const list = (await client.get('/me/albums/owned')).body;
      expect(ids(list)).to.deep.equal([albumId]);
      expect(list[0]).to.include({ wishlisted_at: wished.wishlisted_at, owned_at: owned.body.owned_at, added_at: owned.body.owned_at });
    });

    it('when it is owned and wished for or owned again, then it stays owned, once', async () => {
      const wishAgain = await client.post('/me/albums/wishlist', { canonical_id: albumId });
      expect(wishAgain.body.status).to.equal('owned');
      const ownAgain = await client.post('/me/albums/owned', { canonical_id: albumId });
      expect(ownAgain.body.status).to.equal('owned');
      expect((await client.get('/me/albums/wishlist')).body).to.deep.equal([]);
      expect(ids((await client.get('/me/albums/owned')).body)).to.deep.equal([albumId]);
    });

    it('when it is removed from the wishlist while owned, then nothing changes; removed from owned, it is gone', async () => {
      expect((await client.delete(`/me/albums/wishlist/${albumId}`)).body).to.deep.equal({ kind: 'album', canonical_id: albumId, removed: false });
      expect(ids((await client.get('/me/albums/owned')).body)).to.deep.equal([albumId]);
      expect((await client.delete(`/me/albums/owned/${albumId}`)).body.removed).to.equal(true);
      expect((await client.get('/me/albums/owned')).body).to.deep.equal([]);
      expect((await client.delete(`/me/albums/owned/${albumId}`)).body.removed).to.equal(false);
    });
  });

  it('an album owned without a wish has no wishlisted_at; one removed from the wishlist is gone', async () => {
    const { client } = await signedInAs(app, 'viewer');
    const [a, b] = [(await givenMusic(app)).albumId, (await givenMusic(app)).albumId];
    expect((await client.post('/me/albums/owned', { canonical_id: a })).body).to.include({ status: 'owned', wishlisted_at: null });
    await client.post('/me/albums/wishlist', { canonical_id: b });
    expect((await client.delete(`/me/albums/wishlist/${b}`)).body.removed).to.equal(true);
    expect((await client.get('/me/albums/wishlist')).body).to.deep.equal([]);
  });

  it('refuses a body with neither id (422), unknown albums and non-album ids (404)', async () => {
    const { client } = await signedInAs(app, 'viewer');
    const music = await givenMusic(app);
    expect((await client.post('/me/albums/wishlist', {})).status).to.equal(422);
    expect((await client.post('/me/albums/owned', { catalog_id: 'abc' })).status).to.equal(422);
    expect((await client.post('/me/albums/owned', { canonical_id: music.trackId })).status).to.equal(404);
    expect((await client.delete('/me/albums/wishlist/01HZZZZZZZZZZZZZZZZZZZZZZZ')).status).to.equal(404);
  });

  describe('merge chains', () => {
    it('a wish under a merged-away id and the owned target meet as one owned album that keeps the wish time', async () => {
      const { client, username } = await signedInAs(app, 'viewer');
      const [a, b] = [await givenAlbum(app, 'Col A', 'mb-col-a'), await givenAlbum(app, 'Col B', 'mb-col-b')];
      const wish = (await client.post('/me/albums/wishlist', { canonical_id: a })).body;
      await client.post('/me/albums/owned', { canonical_id: b });
      await admin.post(`/admin/canonical/albums/${b}/merge`, { source_id: a });
      const rows = await app.ctx.db.selectFrom('album_collection').select('canonical_id').where('username_key', '=', username).execute();
      expect(rows.map((r) => r.canonical_id)).to.deep.equal([b, b]);
      expect((await client.get('/me/albums/wishlist')).body).to.deep.equal([]);
      const owned = (await client.get('/me/albums/owned')).body;
      expect(ids(owned)).to.deep.equal([b]);
      expect(owned[0].wishlisted_at).to.equal(wish.wishlisted_at);
    });

    it('owning through the end id moves a wish recorded under a merged-away id', async () => {
      const { client } = await signedInAs(app, 'viewer');
      const [a, b, c] = [await givenAlbum(app, 'Mv A', 'mb-mv-a'), await givenAlbum(app, 'Mv B', 'mb-mv-b'), await givenAlbum(app, 'Mv C', 'mb-mv-c')];
      const wish = (await client.post('/me/albums/wishlist', { canonical_id: a })).body;
      await admin.post(`/admin/canonical/albums/${b}/merge`, { source_id: a });
      await admin.post(`/admin/canonical/albums/${c}/merge`, { source_id: b });
      expect(ids((await client.get('/me/albums/wishlist')).body)).to.deep.equal([c]);
      expect((await client.post('/me/albums/wishlist', { canonical_id: c })).body.wishlisted_at).to.equal(wish.wishlisted_at);
      const owned = await client.post('/me/albums/owned', { canonical_id: c });
      expect(owned.body).to.include({ id: c, status: 'owned', wishlisted_at: wish.wishlisted_at });
      expect((await client.get('/me/albums/wishlist')).body).to.deep.equal([]);
      expect((await client.delete(`/me/albums/owned/${b}`)).body).to.deep.equal({ kind: 'album', canonical_id: c, removed: true });
      expect((await client.get('/me/albums/owned')).body).to.deep.equal([]);
    });
  });
});
