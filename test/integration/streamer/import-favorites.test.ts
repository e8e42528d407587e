import { expect } from 'chai';
import { type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { linkStreamer, smallLibrary, syncAndWait } from '../../support/streamer.ts';
import { type StreamerFake, startStreamerFake } from '../../fakes/streamer/server.ts';

describe('streamer liked songs as favorites: POST /streamer/me/import-favorites', () => {
  let fake: StreamerFake;
  let app: TestApp;

  before(async () => {
    fake = await startStreamerFake();
    app = await startTestApp(fake.env);
    smallLibrary(fake, 'ann-account');
  });
  after(async () => {
    await app.close();
    await fake.close();
  });

  it('given no link or no sync yet, then candidates is 0', async () => {
    const { client } = await signedInAs(app, 'viewer');
    const zero = { candidates: 0, imported: 0, already_favorited: 0, unresolved: 0 };
    expect((await client.post('/streamer/me/import-favorites')).body).to.deep.equal(zero);
    await linkStreamer(client, fake, 'ann-account');
    const res = await client.post('/streamer/me/import-favorites');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal(zero);
  });

  it('given a synced account, then the saved tracks become track favorites once, with what was favorited counted apart', async () => {
    const { client, username } = await signedInAs(app, 'viewer');
    await linkStreamer(client, fake, 'ann-account');
    await syncAndWait(client, app);
    const first = (await client.get('/streamer/me/playlists/__liked_songs__/mediaserver-coverage')).body;
    expect(first.total).to.equal(5);
    const liked = await app.ctx.db.selectFrom('streamer_saved_tracks').select('canonical_track_id').where('account_id', '=', 'ann-account').orderBy('added_at', 'desc').execute();
    expect((await client.post('/me/favorites/tracks', { canonical_id: liked[0]!.canonical_track_id })).status).to.be.oneOf([200, 201]);

    const res = await client.post('/streamer/me/import-favorites');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ candidates: 5, imported: 4, already_favorited: 1, unresolved: 0 });
    const favorites = await client.get('/me/favorites/tracks');
    expect(favorites.body.map((f: { canonical_id: string }) => f.canonical_id)).to.have.members(liked.map((l) => l.canonical_track_id));
    const added = (await app.ctx.store.readAll()).filter((e) => e.type === 'FavoriteAdded' && (e.data as { username: string }).username === username);
    expect(added).to.have.length(5);

    const again = await client.post('/streamer/me/import-favorites');
    expect(again.body).to.deep.equal({ candidates: 5, imported: 0, already_favorited: 5, unresolved: 0 });
    expect((await app.ctx.store.readAll()).filter((e) => e.type === 'FavoriteAdded' && (e.data as { username: string }).username === username)).to.have.length(5);
  });
});
