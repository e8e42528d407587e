import { expect } from 'chai';
import type { ApiClient, TestApp } from '../../support/api.ts';
import { startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { givenMusic } from './entities.ts';

/**
 * A second user aims every id-bearing /me route at the first user's rows: nothing of the first
 * user's comes back, and nothing of theirs changes.
 */
describe('me: a second user gets nothing of the first user\'s', () => {
  let app: TestApp;
  let owner: ApiClient;
  let intruder: ApiClient;
  let music: Awaited<ReturnType<typeof givenMusic>>;
  let wishedAlbum: string;
  let noteId: string;
  let snapshot: () => Promise<Record<string, unknown>>;
  before(async () => {
    app = await startTestApp();
    owner = (await signedInAs(app, 'viewer')).client;
    intruder = (await signedInAs(app, 'staff')).client;
    music = await givenMusic(app, 'Private Band');
    wishedAlbum = (await givenMusic(app)).albumId;
    await owner.post('/me/favorites/artists', { canonical_id: music.artistId });
    await owner.post('/me/favorites/albums', { canonical_id: music.albumId });
    await owner.post('/me/favorites/tracks', { canonical_id: music.trackId });
    await owner.post('/me/albums/owned', { canonical_id: music.albumId });
    await owner.post('/me/albums/wishlist', { canonical_id: wishedAlbum });
    noteId = (await owner.post(`/me/comments/album/${music.albumId}`, { body: 'private thoughts' })).body.id;
    snapshot = async () => {
      const out: Record<string, unknown> = {};
      for (const path of ['/me/favorites/artists', '/me/favorites/albums', '/me/favorites/tracks', '/me/albums/wishlist', '/me/albums/owned', '/me/comments', `/me/comments/album/${music.albumId}`]) {
        out[path] = (await owner.get(path)).body;
      }
      return out;
    };
  });
  after(() => app.close());

  it('reads: every list and thread of the intruder is empty, and counts are zero', async () => {
    for (const path of ['/me/favorites/artists', '/me/favorites/albums', '/me/favorites/tracks', '/me/albums/wishlist', '/me/albums/owned', '/me/comments', `/me/comments/album/${music.albumId}`]) {
      const res = await intruder.get(path);
      expect(res.status, path).to.equal(200);
      expect(res.body, path).to.deep.equal([]);
    }
    const counts = await intruder.post('/me/comments/counts', { items: [{ kind: 'album', canonical_id: music.albumId }] });
    expect(counts.body).to.deep.equal({ [`album::${music.albumId}`]: 0 });
  });

  it('writes: deletes of the owner\'s ids remove nothing, and the note cannot be edited or deleted', async () => {
    const before = await snapshot();
    const deletes = [
      `/me/favorites/artists/${music.artistId}`,
      `/me/favorites/albums/${music.albumId}`,
      `/me/favorites/tracks/${music.trackId}`,
      `/me/albums/owned/${music.albumId}`,
      `/me/albums/wishlist/${wishedAlbum}`,
    ];
    for (const path of deletes) {
      const res = await intruder.delete(path);
      expect(res.status, path).to.equal(200);
      expect(res.body.removed, path).to.equal(false);
    }
    const edit = await intruder.patch(`/me/comments/${noteId}`, { body: 'defaced' });
    expect(edit.status).to.equal(404);
    expect(JSON.stringify(edit.body)).to.not.include('private thoughts');
    expect((await intruder.delete(`/me/comments/${noteId}`)).status).to.equal(404);
    expect(await snapshot()).to.deep.equal(before);
  });

  it('writes: adding the same ids lands in the intruder\'s own lists only', async () => {
    const before = await snapshot();
    expect((await intruder.post('/me/albums/owned', { canonical_id: wishedAlbum })).body.wishlisted_at).to.equal(null);
    await intruder.post('/me/favorites/tracks', { canonical_id: music.trackId });
    await intruder.post(`/me/comments/album/${music.albumId}`, { body: 'intruder note' });
    expect((await intruder.get(`/me/comments/album/${music.albumId}`)).body.map((c: { body: string }) => c.body)).to.deep.equal(['intruder note']);
    expect(await snapshot()).to.deep.equal(before);
  });

  it('a namesake registered after the owner\'s account was deleted starts empty and cannot touch the old notes', async () => {
    const first = await signedInAs(app, 'viewer');
    const { albumId, trackId } = await givenMusic(app);
    await first.client.post('/me/favorites/tracks', { canonical_id: trackId });
    await first.client.post('/me/albums/wishlist', { canonical_id: albumId });
    const note = (await first.client.post(`/me/comments/album/${albumId}`, { body: 'old life' })).body;
    const admin = await signedInAdmin(app);
    expect((await admin.delete(`/auth/users/${first.username}`)).status).to.equal(200);
    const namesake = app.client();
    expect((await namesake.post('/auth/register', { username: first.username, password: 'another-password' })).status).to.equal(200);
    for (const path of ['/me/favorites/tracks', '/me/albums/wishlist', '/me/comments', `/me/comments/album/${albumId}`]) {
      expect((await namesake.get(path)).body, path).to.deep.equal([]);
    }
    expect((await namesake.patch(`/me/comments/${note.id}`, { body: 'rewritten' })).status).to.equal(404);
    expect((await namesake.delete(`/me/favorites/tracks/${trackId}`)).body.removed).to.equal(false);
    expect((await namesake.post('/me/albums/owned', { canonical_id: albumId })).body).to.include({ status: 'owned', wishlisted_at: null });
    expect((await namesake.post('/me/favorites/tracks', { canonical_id: trackId })).status).to.equal(200);
    expect((await namesake.get('/me/favorites/tracks')).body.map((r: { id: string }) => r.id)).to.deep.equal([trackId]);
    expect((await admin.get(`/me/comments/album/${albumId}`)).body).to.deep.equal([]);
  });
});
