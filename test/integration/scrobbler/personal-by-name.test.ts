import { expect } from 'chai';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { type ScrobblerFake, startScrobblerFake } from '../../fakes/scrobbler/server.ts';
import { reconcile } from '../../../command/canonical/reconciler.ts';

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
const enc = encodeURIComponent;

describe('scrobbler: favorites, wishlist and owned by name', () => {
  let fake: ScrobblerFake;
  let app: TestApp;
  let client: ApiClient;
  let other: ApiClient;

  before(async () => {
    fake = await startScrobblerFake();
    fake.state.addAlbum({ artist: 'Cher', name: 'Believe', mbid: '03c91c40-49a6-44a7-90e7-a700edf97a62' });
    fake.state.addAlbum({ artist: 'Cher', name: 'Heart of Stone', mbid: '' });
    fake.state.addAlbum({ artist: 'Portishead', name: 'Dummy', mbid: '' });
    fake.state.addAlbum({ artist: 'AC/DC', name: 'Back in Black', mbid: '' });
    fake.state.addTrack({ artist: 'Cher', name: 'Strong Enough', mbid: '', album: 'Believe' });
    app = await startTestApp(fake.env);
    ({ client } = await signedInAs(app, 'viewer'));
    ({ client: other } = await signedInAs(app, 'viewer'));
  });
  beforeEach(() => {
    fake.requests.length = 0;
  });
  after(async () => {
    await app.close();
    await fake.close();
  });

  it('given an artist name, when it is favorited here, then it is minted into the canonical layer and shows in /me/favorites too', async () => {
    const res = await client.post('/scrobbler/me/favorites/artists', { artist: 'Cher' });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ kind: 'artist', name: 'Cher' });
    expect(res.body.refs).to.deep.include({ source: 'scrobbler', external_id: 'cher' });
    expect(res.body.added_at).to.be.a('string');
    expect(ids((await client.get('/me/favorites/artists')).body)).to.deep.equal([res.body.id]);
    expect(ids((await client.get('/scrobbler/me/favorites/artists')).body)).to.deep.equal([res.body.id]);
    const again = await client.post('/scrobbler/me/favorites/artists', { artist: 'CHER' });
    expect(again.body).to.include({ id: res.body.id, added_at: res.body.added_at });
  });

  it('given an entity another source brought, when its scrobbler name is favorited, then the favorite is that entity', async () => {
    const artist = { source: 'mediaserver' as const, kind: 'artist' as const, external_id: 'mediaserver::srv::p1', facts: { name: 'Portishead' } };
    const albumId = await reconcile(app.ctx, { source: 'mediaserver', kind: 'album', external_id: 'mediaserver::srv::p2', facts: { name: 'Dummy' }, artist });
    const res = await client.post('/scrobbler/me/favorites/albums', { artist: 'Portishead', album: 'Dummy' });
    expect(res.status).to.equal(200);
    expect(res.body.id).to.equal(albumId);
    expect(fake.requests.map((r) => r.query.method)).to.deep.equal(['album.getInfo']);
    expect(ids((await client.get('/me/favorites/albums')).body)).to.deep.equal([albumId]);
  });

  it('given a favorite added through /me, when a track is favorited by name, then both are listed here and under /me', async () => {
    const artist = { source: 'mediaserver' as const, kind: 'artist' as const, external_id: 'mediaserver::srv::m1', facts: { name: 'Massive Attack' } };
    const mine = await reconcile(app.ctx, { source: 'mediaserver', kind: 'track', external_id: 'mediaserver::srv::m2', facts: { name: 'Teardrop' }, artist });
    expect((await client.post('/me/favorites/tracks', { canonical_id: mine })).status).to.equal(200);
    const track = await client.post('/scrobbler/me/favorites/tracks', { artist: 'Cher', track: 'Strong Enough' });
    expect(track.status).to.equal(200);
    expect(track.body).to.include({ kind: 'track', title: 'Strong Enough', album_title: 'Believe' });
    expect(ids((await client.get('/scrobbler/me/favorites/tracks')).body)).to.have.members([track.body.id, mine]);
    expect(ids((await client.get('/me/favorites/tracks')).body)).to.have.members([track.body.id, mine]);
    expect((await client.delete(`/scrobbler/me/favorites/tracks/${mine}`)).body.removed).to.equal(true);
  });

  it('when an album the scrobbler does not know is named, then 404 and nothing is added', async () => {
    const res = await client.post('/scrobbler/me/albums/wishlist', { artist: 'Cher', album: 'No Such Record' });
    expect(res.status).to.equal(404);
    expect((await client.get('/scrobbler/me/albums/wishlist')).body).to.deep.equal([]);
    expect((await client.post('/scrobbler/me/favorites/albums', { artist: 'Cher' })).status).to.equal(422);
  });

  it('given an album wished for by name, when it is owned by name, then it moves and keeps wishlisted_at, in both views', async () => {
    const wished = await client.post('/scrobbler/me/albums/wishlist', { artist: 'Cher', album: 'Believe' });
    expect(wished.status).to.equal(200);
    expect(wished.body).to.include({ status: 'wishlisted', owned_at: null, title: 'Believe' });
    expect(ids((await client.get('/me/albums/wishlist')).body)).to.deep.equal([wished.body.id]);
    const owned = await client.post('/scrobbler/me/albums/owned', { artist: 'Cher', album: 'Believe' });
    expect(owned.status).to.equal(200);
    expect(owned.body).to.include({ id: wished.body.id, status: 'owned', wishlisted_at: wished.body.wishlisted_at });
    expect(owned.body.owned_at).to.be.a('string');
    expect((await client.get('/scrobbler/me/albums/wishlist')).body).to.deep.equal([]);
    const list = (await client.get('/scrobbler/me/albums/owned')).body;
    expect(ids(list)).to.deep.equal([wished.body.id]);
    expect(list[0]).to.include({ wishlisted_at: wished.body.wishlisted_at, owned_at: owned.body.owned_at });
    expect((await client.get('/me/albums/owned')).body[0]).to.include({ id: wished.body.id, wishlisted_at: wished.body.wishlisted_at });
  });

  it("given another user's favorite and owned album, when this user deletes them, then nothing changes for the owner", async () => {
    const favorite = (await client.get('/scrobbler/me/favorites/artists')).body[0];
    const owned = (await client.get('/scrobbler/me/albums/owned')).body[0];
    const byId = await other.delete(`/scrobbler/me/favorites/artists/${favorite.id}`);
    expect(byId.status).to.equal(200);
    expect(byId.body).to.deep.equal({ kind: 'artist', canonical_id: favorite.id, removed: false });
    expect((await other.delete(`/scrobbler/me/albums/owned/${enc('Cher::Believe')}`)).body).to.include({ canonical_id: owned.id, removed: false });
    expect(ids((await client.get('/scrobbler/me/favorites/artists')).body)).to.deep.equal([favorite.id]);
    expect(ids((await client.get('/me/albums/owned')).body)).to.deep.equal([owned.id]);
  });

  it('when the owner deletes by scrobbler id or by canonical id, then the entry is gone from both views', async () => {
    const byName = await client.delete(`/scrobbler/me/favorites/artists/${enc('Cher')}`);
    expect(byName.status).to.equal(200);
    expect(byName.body.removed).to.equal(true);
    expect((await client.get('/me/favorites/artists')).body).to.deep.equal([]);
    const owned = (await client.get('/scrobbler/me/albums/owned')).body[0];
    const byId = await client.delete(`/scrobbler/me/albums/owned/${owned.id}`);
    expect(byId.body).to.deep.equal({ kind: 'album', canonical_id: owned.id, removed: true });
    expect((await client.get('/me/albums/owned')).body).to.deep.equal([]);
    const track = (await client.get('/me/favorites/tracks')).body[0];
    expect((await client.delete(`/scrobbler/me/favorites/tracks/${enc('Cher::Strong Enough')}`)).body).to.include({ canonical_id: track.id, removed: true });
    expect((await client.get('/scrobbler/me/favorites/tracks')).body).to.deep.equal([]);
  });

  it('given a name with a slash, when its scrobbler id is deleted URL-encoded, then the entry is gone', async () => {
    const wished = await client.post('/scrobbler/me/albums/wishlist', { artist: 'AC/DC', album: 'Back in Black' });
    expect(wished.status).to.equal(200);
    const res = await client.delete(`/scrobbler/me/albums/wishlist/${enc('AC/DC::Back in Black')}`);
    expect(res.body).to.deep.equal({ kind: 'album', canonical_id: wished.body.id, removed: true });
    expect((await client.get('/scrobbler/me/albums/wishlist')).body).to.deep.equal([]);
  });

  it('when the target is unknown either way, then 404', async () => {
    expect((await client.delete(`/scrobbler/me/albums/wishlist/${enc('Nobody::Nothing')}`)).status).to.equal(404);
    expect((await client.delete('/scrobbler/me/favorites/tracks/01J00000000000000000000000')).status).to.equal(404);
  });
});
