import { expect } from 'chai';
import type { StoredEvent } from '../../../infra/projections/projector.ts';
import { albumCollectionProjector } from '../../../projectors/me/album-collection.projector.ts';
import { commentsProjector } from '../../../projectors/me/comments.projector.ts';
import { favoritesProjector } from '../../../projectors/me/favorites.projector.ts';
import type { ApiClient, TestApp } from '../../support/api.ts';
import { startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { givenAlbum, givenMusic } from './entities.ts';

const PROJECTORS = [favoritesProjector, albumCollectionProjector, commentsProjector];

/** Every row of the personal read models, in a stable order. */
async function tables(app: TestApp) {
  const db = app.ctx.db;
  return {
    favorites: await db.selectFrom('favorites').selectAll().orderBy('username_key').orderBy('kind').orderBy('recorded_id').execute(),
    album_collection: await db.selectFrom('album_collection').selectAll().orderBy('username_key').orderBy('recorded_id').execute(),
    comments: await db.selectFrom('comments').selectAll().orderBy('comment_id').execute(),
  };
}

describe('me: the personal read models are a function of the log', () => {
  let app: TestApp;
  let admin: ApiClient;
  before(async () => {
    app = await startTestApp();
    admin = await signedInAdmin(app);
    const { client } = await signedInAs(app, 'viewer');
    const music = await givenMusic(app);
    const [a, b] = [await givenAlbum(app, 'Rebuild A', 'mb-rb-a'), await givenAlbum(app, 'Rebuild B', 'mb-rb-b')];
    await client.post('/me/favorites/tracks', { canonical_id: music.trackId });
    await client.post('/me/favorites/artists', { canonical_id: music.artistId });
    await client.delete(`/me/favorites/artists/${music.artistId}`);
    await client.post('/me/favorites/albums', { canonical_id: a });
    await client.post('/me/albums/wishlist', { canonical_id: a });
    await client.post('/me/albums/owned', { canonical_id: b });
    await client.post('/me/albums/wishlist', { canonical_id: music.albumId });
    await client.post('/me/albums/owned', { canonical_id: music.albumId });
    const note = (await client.post(`/me/comments/album/${a}`, { body: 'v1' })).body;
    await client.patch(`/me/comments/${note.id}`, { body: 'v2' });
    const gone = (await client.post(`/me/comments/track/${music.trackId}`, { body: 'gone' })).body;
    await client.delete(`/me/comments/${gone.id}`);
    await admin.post(`/admin/canonical/albums/${b}/merge`, { source_id: a });
  });
  after(() => app.close());

  it('when they are rebuilt from the log, then every row equals the live one', async () => {
    const live = await tables(app);
    expect(live.favorites).to.have.length(2);
    expect(live.comments).to.have.length(1);
    await app.ctx.projections!.rebuild(PROJECTORS.map((p) => p.name));
    expect(await tables(app)).to.deep.equal(live);
  });

  it('when the same events are applied twice, then the rows do not change', async () => {
    const live = await tables(app);
    const events = (await app.ctx.store.readAll()) as unknown as StoredEvent[];
    await app.ctx.db.transaction().execute(async (trx) => {
      for (const projector of PROJECTORS) await projector.apply(trx, events.filter((e) => projector.handles.includes(e.type)));
    });
    expect(await tables(app)).to.deep.equal(live);
  });
});
