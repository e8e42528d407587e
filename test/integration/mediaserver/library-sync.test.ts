import { expect } from 'chai';
import type { ApiClient, TestApp } from '../../support/api.ts';
import { startTestApp } from '../../support/api.ts';
import { signedInAdmin } from '../../support/given.ts';
import { type MediaserverFake, mediaserverEnv, startMediaserverFake } from '../../fakes/mediaserver/server.ts';
import { pollTask } from '../tasks/test-tasks.ts';

const SERVER = 'fakemachine0001';

describe('mediaserver: library sync', () => {
  let fake: MediaserverFake;
  let app: TestApp;
  let admin: ApiClient;
  let flacAlbum: string;
  let flacTracks: string[];
  let lossyAlbum: string;
  before(async () => {
    fake = await startMediaserverFake();
    const artist = fake.library.addArtist('Synthetic Band');
    flacAlbum = fake.library.addAlbum(artist, 'Lossless Record', { year: 2020 });
    flacTracks = [
      fake.library.addTrack(flacAlbum, { title: 'First Light', index: 1, codec: 'flac', bitDepth: 24, samplingRate: 96000 }),
      fake.library.addTrack(flacAlbum, { title: 'Second Wind', index: 2, codec: 'flac', bitDepth: 16 }),
    ];
    lossyAlbum = fake.library.addAlbum(artist, 'Compressed Record', { year: 2021 });
    fake.library.addTrack(lossyAlbum, { title: 'Low Bitrate', index: 1, codec: 'mp3', bitrate: 128 });
    app = await startTestApp(mediaserverEnv(fake));
    admin = await signedInAdmin(app);
  });
  after(async () => {
    await app.close();
    await fake.close();
  });
  beforeEach(() => fake.clearRequests());

  async function sync(path: string) {
    const res = await admin.post(path);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ status: 'running' });
    const task = await pollTask(admin, res.body.task_id, undefined, 60_000);
    expect(task.status, task.error ?? '').to.equal('completed');
    return task.summary as Record<string, any>;
  }
  const resolveTrack = (ratingKey: string) => admin.get(`/tracks/resolve?mediaserver_server=${SERVER}&mediaserver_rating_key=${ratingKey}`);
  const childrenFetched = () => fake.requests.filter((r) => /^\/library\/metadata\/\d+\/children$/.test(r.path)).map((r) => r.path.split('/')[3]);
  const mirrorRow = (ratingKey: string) => app.ctx.db.selectFrom('mediaserver_items').selectAll().where('rating_key', '=', ratingKey).executeTakeFirst();

  it('given a music section, when it is synced, then every artist, album and track is a canonical doc with the mediaserver source', async () => {
    const summary = await sync('/mediaserver/admin/libraries/5/sync');
    expect(summary).to.include({ server_id: SERVER, section_id: '5', quick: false, artists: 3, albums: 3, tracks: 6, removed: 0 });

    const neon = await resolveTrack('158');
    expect(neon.status).to.equal(200);
    expect(neon.body).to.include({ title: 'Try It Out (Neon mix)', artist_name: 'Skrillex', album_title: 'Try It Out', track_number: 1, disc: 1 });
    expect(neon.body.sources.mediaserver).to.equal(true);
    expect(neon.body.audio_quality).to.deep.equal({ codec: 'aac', bit_depth: null, lossless: false });
    expect(neon.body.refs).to.deep.include({ source: 'mediaserver', external_id: `mediaserver::${SERVER}::158` });

    const hiRes = await resolveTrack(flacTracks[0]!);
    expect(hiRes.body.audio_quality).to.deep.equal({ codec: 'flac', bit_depth: 24, lossless: true });
    const album = await admin.get(`/albums/${hiRes.body.album_id}`);
    expect(album.body).to.include({ title: 'Lossless Record', artist_name: 'Synthetic Band', year: 2020 });
    expect(album.body.sources.mediaserver).to.equal(true);
    const artist = await admin.get(`/artists/${album.body.artist_id}`);
    expect(artist.body).to.include({ name: 'Synthetic Band' });
    expect(artist.body.refs.map((r: { source: string }) => r.source)).to.include('mediaserver');

    expect(fake.requests.every((r) => r.path.startsWith('/identity') || r.headers['x-plex-token'] === fake.adminToken)).to.equal(true);
    expect((await mirrorRow('158'))?.canonical_id).to.equal(neon.body.id);
  });

  it('given a synced section, when it is synced again quickly after one album changed, then only that album’s tracks are fetched', async () => {
    await sync('/mediaserver/admin/libraries/5/sync');
    fake.clearRequests();
    const added = fake.library.addTrack(flacAlbum, { title: 'Third Act', index: 3, codec: 'flac', bitDepth: 16 });
    const summary = await sync('/mediaserver/admin/libraries/5/sync?quick=true');
    expect(childrenFetched()).to.deep.equal([flacAlbum]);
    expect(summary).to.include({ quick: true, artists: 3, albums: 3, albums_fetched: 1, albums_skipped: 2, removed: 0 });
    expect((await resolveTrack(added)).body).to.include({ title: 'Third Act' });
    expect(fake.requestsTo('/library/sections/5/all').map((r) => r.query.type)).to.have.members(['8', '9']);
  });

  it('given a synced section, when a full sync runs, then every album’s tracks are fetched', async () => {
    await sync('/mediaserver/admin/libraries/5/sync');
    expect(childrenFetched()).to.have.members(['157', flacAlbum, lossyAlbum]);
  });

  it('given items the server no longer has, when synced, then they are soft-deleted in the mirror and their canonical docs remain', async () => {
    await sync('/mediaserver/admin/libraries/5/sync');
    const doomed = flacTracks[1]!;
    const before = (await resolveTrack(doomed)).body;
    fake.library.remove(doomed);
    fake.library.remove(lossyAlbum);
    const summary = await sync('/mediaserver/admin/libraries/5/sync?quick=true');
    expect(summary.removed).to.equal(3);
    const row = await mirrorRow(doomed);
    expect(row).to.include({ deleted: true, title: 'Second Wind' });
    expect(row?.deleted_at).to.be.an.instanceOf(Date);
    expect((await mirrorRow(lossyAlbum))?.deleted).to.equal(true);
    expect((await mirrorRow(flacTracks[0]!))?.deleted).to.equal(false);
    expect((await admin.get(`/tracks/${before.id}`)).status).to.equal(200);
  });

  describe('given a synced library with deleted and lossy items, when it is read from the mirror', () => {
    let mixedAlbum: string;
    let gone: string;
    before(async () => {
      const artist = fake.library.addArtist('Mixed Bag');
      mixedAlbum = fake.library.addAlbum(artist, 'Half Record');
      fake.library.addTrack(mixedAlbum, { title: 'Clean', index: 1, codec: 'flac', bitDepth: 16 });
      fake.library.addTrack(mixedAlbum, { title: 'Crunchy', index: 2, codec: 'mp3' });
      gone = fake.library.addTrack(mixedAlbum, { title: 'Vanishing', index: 3, codec: 'flac', bitDepth: 16 });
      await sync('/mediaserver/admin/libraries/5/sync');
      fake.library.remove(gone);
      await sync('/mediaserver/admin/libraries/5/sync?quick=true');
    });

    it('then the libraries are listed with their last sync', async () => {
      const res = await admin.get('/mediaserver/libraries');
      expect(res.status).to.equal(200);
      expect(res.body.map((l: { section_id: string; type: string }) => [l.section_id, l.type])).to.deep.equal([
        ['1', 'movie'],
        ['5', 'artist'],
      ]);
      expect(res.body[1].last_sync).to.include({ quick: true });
    });

    it('then lists leave deleted items out unless asked for', async () => {
      const live = (await admin.get(`/mediaserver/libraries/5/tracks?page_size=500`)).body;
      expect(live.map((t: { rating_key: string }) => t.rating_key)).not.to.include(gone);
      expect(live.every((t: { deleted: boolean }) => !t.deleted)).to.equal(true);
      const all = (await admin.get(`/mediaserver/libraries/5/tracks?include_deleted=true&page_size=500`)).body;
      expect(all.find((t: { rating_key: string }) => t.rating_key === gone)).to.include({ title: 'Vanishing', deleted: true });
      const albums = (await admin.get('/mediaserver/libraries/5/albums')).body;
      expect(albums.map((a: { title: string }) => a.title)).to.include.members(['Half Record', 'Try It Out']);
      expect((await admin.get('/mediaserver/libraries/5/albums?page=2&page_size=1')).body).to.have.length(1);
    });

    it('then search finds live music items by substring', async () => {
      const res = await admin.get('/mediaserver/library/search?q=record');
      expect(res.status).to.equal(200);
      expect(res.body.map((a: { title: string }) => a.title)).to.include('Half Record');
      expect(res.body.every((a: { kind: string }) => a.kind === 'album')).to.equal(true);
      const tracks = (await admin.get('/mediaserver/library/search?q=vanish&kind=track')).body;
      expect(tracks).to.deep.equal([]);
      expect((await admin.get('/mediaserver/library/search?q=crunch&kind=track')).body[0]).to.include({ title: 'Crunchy' });
    });

    it('then stats count active and deleted entities', async () => {
      const res = await admin.get('/mediaserver/admin/stats');
      expect(res.status).to.equal(200);
      expect(res.body.entities_deleted).to.be.at.least(1);
      expect(res.body.by_kind.track.deleted).to.be.at.least(1);
      expect(res.body.entities).to.equal(Object.values(res.body.by_kind as Record<string, { active: number }>).reduce((a, k) => a + k.active, 0));
    });

    it('then non-FLAC albums come worst first', async () => {
      const res = await admin.get('/mediaserver/admin/non-flac-albums');
      expect(res.status).to.equal(200);
      const titles = res.body.map((a: { title: string }) => a.title);
      expect(titles.indexOf('Try It Out')).to.be.lessThan(titles.indexOf('Half Record'));
      expect(titles).not.to.include('Lossless Record');
      expect(res.body.find((a: { title: string }) => a.title === 'Half Record')).to.include({ tracks: 2, non_flac_tracks: 1, lossy_tracks: 1 });
    });

    it('then the server identity comes from the mirror', async () => {
      fake.clearRequests();
      const res = await admin.get('/mediaserver/admin/server');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ machine_identifier: SERVER, friendly_name: 'Fake Box', platform: 'Linux' });
      expect(fake.requests).to.have.length(0);
    });
  });

  it('given the whole server, when sync-all runs, then each syncable section is reported', async () => {
    const summary = await sync('/mediaserver/admin/sync-all?quick=true');
    expect(summary.server_id).to.equal(SERVER);
    expect(summary.sections.map((s: { section_id: string }) => s.section_id)).to.deep.equal(['1', '5']);
    expect(summary.failed).to.equal(0);
  });

  it('when the libraries are refreshed, then the server and its sections are answered', async () => {
    const res = await admin.post('/mediaserver/admin/libraries/refresh');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      server_id: SERVER,
      friendly_name: 'Fake Box',
      libraries: [
        { section_id: '1', type: 'movie', title: 'Movies' },
        { section_id: '5', type: 'artist', title: 'Music' },
      ],
    });
  });

  it('given the server failing mid-sync, then the task fails with the failure and no token', async () => {
    fake.failNext(401, '/library/sections/5/all');
    const res = await admin.post('/mediaserver/admin/libraries/5/sync');
    const task = await pollTask(admin, res.body.task_id, undefined, 60_000);
    expect(task.status).to.equal('failed');
    expect(task.error).to.match(/rejected/i);
    expect(JSON.stringify(task)).not.to.contain(fake.adminToken);
  });

  it('given no media server configured, when a sync is asked for, then 503', async () => {
    const bare = await startTestApp();
    try {
      const client = await signedInAdmin(bare);
      expect((await client.post('/mediaserver/admin/libraries/5/sync')).status).to.equal(503);
      expect((await client.post('/mediaserver/admin/sync-all')).status).to.equal(503);
    } finally {
      await bare.close();
    }
  });
});
