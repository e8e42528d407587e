import { expect } from 'chai';
import { pollTask } from '../tasks/test-tasks.ts';
import { type MediaserverWorld, SERVER, startWorld } from './world.ts';

/** The client's whole walk against the fake: link, sync, browse, play, playlists, favorites, a changed server, a revoked token. */
describe('mediaserver: link → sync → browse → play → playlists → favorites playlist', () => {
  let world: MediaserverWorld;
  let album: string;
  let keep: string;
  let dropped: string;
  before(async () => {
    world = await startWorld((fake) => {
      const artist = fake.library.addArtist('Journey Band');
      album = fake.library.addAlbum(artist, 'Walkthrough', { year: 2024 });
      keep = fake.library.addTrack(album, { title: 'Stays', index: 1, size: 120_000 });
      dropped = fake.library.addTrack(album, { title: 'Goes Away', index: 2 });
    });
  });
  after(() => world.close());

  it('walks the whole way', async () => {
    const user = await world.linkedUser();
    expect((await user.client.get('/mediaserver/me')).body.linked).to.equal(true);

    const summary = await world.sync();
    expect(summary.removed).to.equal(0);
    const search = await user.client.get('/mediaserver/library/search?q=Walkthrough');
    expect(search.status).to.equal(200);
    expect(JSON.stringify(search.body)).to.contain('Walkthrough');

    const albumId = await world.albumId(album);
    const maps = await user.client.get(`/mediaserver/play/album-tracks/${albumId}`);
    const keepId = maps.body.by_position['1::1'] as string;
    const droppedId = maps.body.by_position['1::2'] as string;
    expect(keepId).to.equal(await world.trackId(keep));

    const ranged = await world.bytes(user.client, `/mediaserver/play/track/${keepId}`, { range: 'bytes=44-143' });
    expect(ranged.status).to.equal(206);
    expect(ranged.body).to.have.length(100);
    const whole = await world.bytes(user.client, `/mediaserver/play/track/${keepId}`);
    expect(ranged.body.equals(whole.body.subarray(44, 144))).to.equal(true);
    expect(ranged.headers.get('content-range')).to.equal(`bytes 44-143/${whole.body.length}`);

    const mix = world.fake.media.playlists.create(user.token, 'Walk Mix', 'audio', [keep, dropped]);
    const sync = await user.client.post('/mediaserver/me/playlists/sync');
    expect((await pollTask(world.admin, sync.body.task_id, undefined, 60_000)).status).to.equal('completed');
    const detail = await user.client.get(`/mediaserver/me/playlists/${SERVER}::${mix}`);
    expect(detail.body.items.map((i: any) => i.canonical_track_id)).to.deep.equal([keepId, droppedId]);

    await user.client.post('/me/favorites/tracks', { canonical_id: keepId });
    await user.client.post('/me/favorites/tracks', { canonical_id: droppedId });
    expect((await user.client.post('/mediaserver/me/favorites-playlist/sync')).body).to.include({ total: 2 });

    world.fake.library.remove(dropped);
    world.fake.library.update(keep, { title: 'Stays (Renamed)' });
    const resync = await world.sync(true);
    expect(resync.removed).to.equal(1);
    expect((await user.client.get(`/mediaserver/track/${droppedId}/details`)).status).to.equal(404);
    expect((await user.client.get(`/mediaserver/track/${keepId}/details`)).body.title).to.equal('Stays (Renamed)');
    expect((await world.bytes(user.client, `/mediaserver/play/track/${keepId}`, { range: 'bytes=0-3' })).body.toString('ascii')).to.equal('RIFF');
    const rebuilt = await user.client.post('/mediaserver/me/favorites-playlist/sync');
    expect(rebuilt.body).to.include({ total: 1 });

    world.fake.revoke(user.token);
    const revoked = await user.client.post('/mediaserver/me/favorites-playlist/sync');
    expect(revoked.status).to.equal(401);
    expect(JSON.stringify(revoked.body)).not.to.contain(user.token);
    const timeline = await user.client.post(`/mediaserver/play/track/${keepId}/timeline`, { state: 'playing', time_ms: 0, duration_ms: 1000 });
    expect(timeline.body).to.deep.equal({ state: 'playing', reported: false });
    const failed = await user.client.post('/mediaserver/me/playlists/sync');
    expect((await pollTask(world.admin, failed.body.task_id, undefined, 60_000)).status).to.equal('failed');
  });
});
