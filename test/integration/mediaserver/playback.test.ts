import { expect } from 'chai';
import type { ApiClient } from '../../support/api.ts';
import { startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { type MediaserverWorld, startWorld } from './world.ts';

describe('mediaserver: playback and track data', () => {
  let world: MediaserverWorld;
  let album: string;
  let tracks: string[];
  let user: { client: ApiClient; username: string; token: string };
  before(async () => {
    world = await startWorld((fake) => {
      const artist = fake.library.addArtist('Synthetic Band');
      album = fake.library.addAlbum(artist, 'Two Discs', { year: 2020, thumb: '/library/metadata/0/thumb/1' });
      tracks = [
        fake.library.addTrack(album, { title: 'Opening', index: 1, codec: 'flac', bitDepth: 24, samplingRate: 96000, size: 300_000 }),
        fake.library.addTrack(album, { title: 'Closing (Live)', index: 2, codec: 'mp3', container: 'mp3', bitrate: 320 }),
        fake.library.addTrack(album, { title: 'Second Side', index: 1, disc: 2, codec: 'flac', bitDepth: 16 }),
      ];
      fake.library.update(album, { thumb: `/library/metadata/${album}/thumb/1700000000` });
    });
    await world.sync();
    user = await world.linkedUser();
  });
  after(() => world.close());
  beforeEach(() => world.fake.clearRequests());

  const directPart = async (ratingKey: string) => {
    const part = ((world.fake.library.get(ratingKey).Media as any[])[0].Part as any[])[0];
    const res = await fetch(world.fake.url + part.key, { headers: { 'x-plex-token': world.fake.adminToken } });
    return Buffer.from(await res.arrayBuffer());
  };

  describe('given a synced track', () => {
    it('when a range is asked for, then 206 returns exactly those bytes with Content-Range and the type passed through', async () => {
      const id = await world.trackId(tracks[0]!);
      const whole = await directPart(tracks[0]!);
      world.fake.clearRequests();
      const res = await world.bytes(user.client, `/mediaserver/play/track/${id}`, { range: 'bytes=1000-1999' });
      expect(res.status).to.equal(206);
      expect(res.headers.get('content-range')).to.equal(`bytes 1000-1999/${whole.length}`);
      expect(res.headers.get('accept-ranges')).to.equal('bytes');
      expect(res.headers.get('content-type')).to.equal('audio/flac');
      expect(res.body.equals(whole.subarray(1000, 2000))).to.equal(true);
      const sent = world.fake.requestsTo('/library/parts/');
      expect(sent).to.have.length(1);
      expect(sent[0]!.headers.range).to.equal('bytes=1000-1999');
      expect(sent[0]!.headers['x-plex-token']).to.equal(world.fake.adminToken);
      expect(JSON.stringify([...res.headers])).not.to.contain(world.fake.adminToken);
    });

    it('when no range is asked for, then the whole file comes back', async () => {
      const id = await world.trackId(tracks[0]!);
      const res = await world.bytes(user.client, `/mediaserver/play/track/${id}`);
      expect(res.status).to.equal(200);
      expect(res.body.equals(await directPart(tracks[0]!))).to.equal(true);
      expect(res.body.subarray(0, 4).toString('ascii')).to.equal('RIFF');
    });

    it('when the client goes away mid-file, then the upstream read stops before the end', async () => {
      const big = world.fake.library.addTrack(album, { title: 'Long Take', index: 9, size: 2_000_000 });
      await world.sync();
      const part = ((world.fake.library.get(big).Media as any[])[0].Part as any[])[0];
      world.fake.media.slowParts.add(Number(part.id));
      const abort = new AbortController();
      const res = await fetch(`${world.app.url}/mediaserver/play/track/${await world.trackId(big)}`, {
        headers: { cookie: `media_session=${user.client.cookie('media_session')}` },
        signal: abort.signal,
      });
      expect(res.status).to.equal(200);
      const reader = res.body!.getReader();
      await reader.read();
      abort.abort();
      const deadline = Date.now() + 5000;
      const read = () => world.fake.media.partReads.find((r) => r.partId === Number(part.id));
      while (!read()?.closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(read()).to.deep.include({ closed: true, finished: false });
      world.fake.library.remove(big);
      await world.sync();
    });

    it('when the MP3 transcode is asked for, then the transcoder’s MP3 streams through', async () => {
      const id = await world.trackId(tracks[1]!);
      const res = await world.bytes(user.client, `/mediaserver/play/track/${id}/transcode.mp3`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('audio/mpeg');
      expect(res.body.subarray(0, 3).toString('ascii')).to.equal('ID3');
      expect(world.fake.requestsTo('/music/').map((r) => r.query.path)).to.deep.equal([`/library/metadata/${tracks[1]}`]);
    });

    it('when its details are read, then quality, size and dates of the live file are shown', async () => {
      const id = await world.trackId(tracks[0]!);
      const res = await user.client.get(`/mediaserver/track/${id}/details`);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ rating_key: tracks[0], codec: 'flac', bit_depth: 24, sampling_rate: 96000, lossless: true, size: 300_000, play_count: 0 });
      expect(res.body.added_at).to.be.a('string');
    });

    it('when an unknown track is played or detailed, then 404', async () => {
      expect((await user.client.get('/mediaserver/track/01UNKNOWN/details')).status).to.equal(404);
      expect((await world.bytes(user.client, '/mediaserver/play/track/01UNKNOWN')).status).to.equal(404);
    });
  });

  describe('given a synced album', () => {
    it('when its track maps are read, then positions default to disc 1 and loose title keys two tracks claim are dropped', async () => {
      const albumId = await world.albumId(album);
      const ids = await Promise.all(tracks.map((t) => world.trackId(t)));
      const res = await user.client.get(`/mediaserver/play/album-tracks/${albumId}`);
      expect(res.status).to.equal(200);
      expect(res.body.by_position).to.deep.equal({ '1::1': ids[0], '1::2': ids[1], '2::1': ids[2] });
      expect(res.body.by_title_folded).to.deep.equal({ opening: ids[0], 'closing live': ids[1], 'second side': ids[2] });
      expect(res.body.by_title_match).to.deep.equal({ opening: ids[0], closing: ids[1], 'second side': ids[2] });
      expect(res.body.by_catalog_id).to.deep.equal({});

      const skrillex = await user.client.get(`/mediaserver/play/album-tracks/${await world.albumId('157')}`);
      expect(Object.keys(skrillex.body.by_title_folded)).to.have.length(3);
      expect(skrillex.body.by_title_match).to.deep.equal({});
    });

    it('when its track details are read, then every linked track has its file details', async () => {
      const res = await user.client.get(`/mediaserver/play/album-tracks/${await world.albumId(album)}/details`);
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body)).to.have.members(await Promise.all(tracks.map((t) => world.trackId(t))));
      expect(res.body[await world.trackId(tracks[1]!)]).to.include({ codec: 'mp3', lossless: false });
    });

    it('when its cover is read, then the server’s image comes back; an unlinked album is 404', async () => {
      const res = await world.bytes(user.client, `/mediaserver/album/${await world.albumId(album)}/cover`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.contain('image/jpeg');
      expect(res.body.subarray(0, 2).equals(Buffer.from([0xff, 0xd8]))).to.equal(true);
      expect(world.fake.requestsTo('/library/metadata/').map((r) => r.path)).to.deep.equal([`/library/metadata/${album}/thumb/1700000000`]);
      expect((await world.bytes(user.client, '/mediaserver/album/01UNKNOWN/cover')).status).to.equal(404);
    });
  });

  describe('given timeline reports', () => {
    it('when the user is linked, then the report goes out with their own token', async () => {
      const id = await world.trackId(tracks[0]!);
      const res = await user.client.post(`/mediaserver/play/track/${id}/timeline`, { state: 'playing', time_ms: 10_000, duration_ms: 180_000 });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ state: 'playing', reported: true });
      const sent = world.fake.requestsTo('/:/timeline');
      expect(sent).to.have.length(1);
      expect(sent[0]!.headers['x-plex-token']).to.equal(user.token);
      expect(sent[0]!.query).to.include({ ratingKey: tracks[0], state: 'playing', time: '10000', duration: '180000' });
    });

    it('when the server fails, then the failure is not returned', async () => {
      const id = await world.trackId(tracks[0]!);
      world.fake.media.timelineStatus = 500;
      try {
        const res = await user.client.post(`/mediaserver/play/track/${id}/timeline`, { state: 'stopped', time_ms: 1, duration_ms: 2 });
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.equal({ state: 'stopped', reported: false });
      } finally {
        world.fake.media.timelineStatus = 200;
      }
    });

    it('when the user is not linked, then 412; a bad state is 422', async () => {
      const id = await world.trackId(tracks[0]!);
      const { client } = await signedInAs(world.app, 'viewer');
      expect((await client.post(`/mediaserver/play/track/${id}/timeline`, { state: 'playing', time_ms: 0, duration_ms: 1 })).status).to.equal(412);
      expect((await user.client.post(`/mediaserver/play/track/${id}/timeline`, { state: 'rewinding', time_ms: 0, duration_ms: 1 })).status).to.equal(422);
    });
  });

  describe('given the server changes', () => {
    it('when a track is deleted and the library resynced, then it has no live file: 404', async () => {
      const extra = world.fake.library.addTrack(album, { title: 'Bonus', index: 3 });
      await world.sync();
      const id = await world.trackId(extra);
      expect((await user.client.get(`/mediaserver/track/${id}/details`)).status).to.equal(200);
      world.fake.library.remove(extra);
      await world.sync();
      expect((await user.client.get(`/mediaserver/track/${id}/details`)).status).to.equal(404);
      expect((await world.bytes(user.client, `/mediaserver/play/track/${id}`)).status).to.equal(404);
    });
  });

  it('given no media server configured, when an album cover is asked for, then 503', async () => {
    const bare = await startTestApp();
    try {
      const { client } = await signedInAs(bare, 'viewer');
      expect((await client.get('/mediaserver/album/01ANY/cover')).status).to.equal(503);
    } finally {
      await bare.close();
    }
  });
});
