import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { linkStreamer, smallLibrary, syncAndWait } from '../../support/streamer.ts';
import { type StreamerFake, startStreamerFake } from '../../fakes/streamer/server.ts';

describe('streamer reads: playlists from the mirror and their media server coverage', () => {
  let fake: StreamerFake;
  let app: TestApp;
  let ann: ApiClient;
  let onServer: string;
  let mine: string;
  let theirs: string;

  before(async () => {
    fake = await startStreamerFake();
    app = await startTestApp(fake.env);
    const { account } = smallLibrary(fake, 'ann-account');
    [mine, theirs] = account.playlists.map((p) => p.playlist.id as string) as [string, string];
    // The media server holds the first saved track (same ISRC), which is also in "Mine".
    onServer = await reconcile(app.ctx, { source: 'mediaserver', kind: 'track', external_id: 'mediaserver::srv::101', facts: { name: 'Song 1', isrc: 'USTEST000001' } });
    ann = (await signedInAs(app, 'viewer')).client;
    await linkStreamer(ann, fake, 'ann-account');
    const { task } = await syncAndWait(ann, app);
    expect(task.status, task.error).to.equal('completed');
  });
  after(async () => {
    await app.close();
    await fake.close();
  });

  it('lists owned playlists by default, followed ones too with owned_only=false, without calling upstream', async () => {
    const calls = fake.requests.length;
    const owned = await ann.get('/streamer/me/playlists');
    expect(owned.status).to.equal(200);
    expect(owned.body.map((p: { name: string }) => p.name)).to.deep.equal(['Mine']);
    expect(owned.body[0]).to.include({ playlist_id: mine, owned: true, owner_id: 'ann-account', tracks_total: 2 });
    const all = await ann.get('/streamer/me/playlists?owned_only=false');
    expect(all.body.map((p: { name: string; owned: boolean }) => [p.name, p.owned])).to.deep.equal([
      ['Mine', true],
      ['Theirs', false],
    ]);
    expect(fake.requests.length).to.equal(calls);
  });

  it('answers a playlist with its items and their canonical track ids', async () => {
    const calls = fake.requests.length;
    const res = await ann.get(`/streamer/me/playlists/${theirs}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ playlist_id: theirs, name: 'Theirs', owned: false });
    expect(res.body.items.map((i: { name: string }) => i.name)).to.deep.equal(['Song 2', 'Song 3', 'Song 5']);
    for (const item of res.body.items) expect(item.canonical_track_id).to.be.a('string');
    expect(fake.requests.length).to.equal(calls);
  });

  it('counts the tracks the media server holds, for a playlist and for __liked_songs__', async () => {
    const playlist = await ann.get(`/streamer/me/playlists/${mine}/mediaserver-coverage`);
    expect(playlist.status).to.equal(200);
    expect(playlist.body).to.include({ playlist_id: mine, total: 2, resolved: 2, in_mediaserver: 1, missing: 1, ratio: 0.5 });
    const liked = await ann.get('/streamer/me/playlists/__liked_songs__/mediaserver-coverage');
    expect(liked.body).to.include({ playlist_id: '__liked_songs__', total: 5, resolved: 5, in_mediaserver: 1, missing: 4 });
    const detail = await ann.get('/streamer/me/playlists/__liked_songs__');
    expect(detail.status).to.equal(404);
    const first = await ann.get(`/streamer/me/playlists/${mine}`);
    expect(first.body.items[0].canonical_track_id).to.equal(onServer);
  });

  it('answers 404 for a playlist not in the caller’s mirror, and shows nothing of another user’s', async () => {
    expect((await ann.get('/streamer/me/playlists/nope')).status).to.equal(404);
    const bob = (await signedInAs(app, 'viewer')).client;
    expect((await bob.get(`/streamer/me/playlists/${mine}`)).status).to.equal(404);
    expect((await bob.get(`/streamer/me/playlists/${mine}/mediaserver-coverage`)).status).to.equal(404);
    expect((await bob.get('/streamer/me/playlists?owned_only=false')).body).to.deep.equal([]);
  });
});
