import { expect } from 'chai';
import type { Express } from 'express';
import type { ApiClient } from '../../support/api.ts';
import { type Fake, startFake } from '../../fakes/harness.ts';
import { pollTask } from '../tasks/test-tasks.ts';
import { type MediaserverWorld, SERVER, startWorld } from './world.ts';

const IDLE_MS = 300;

describe('mediaserver: proxied media keeps the token home, declares its type and stays bounded', () => {
  let world: MediaserverWorld;
  /** Another origin the fake server redirects to: it must never hear from the service. */
  let elsewhere: Fake;
  let user: { client: ApiClient; username: string; token: string };
  let album: string;
  let track: string;
  let trackId: string;
  let playlist: string;
  before(async () => {
    world = await startWorld(
      (fake) => {
        const artist = fake.library.addArtist('Proxy Band');
        album = fake.library.addAlbum(artist, 'Proxied', { year: 2021 });
        track = fake.library.addTrack(album, { title: 'Through', index: 1, codec: 'flac', size: 200_000 });
        fake.library.update(album, { thumb: `/library/metadata/${album}/thumb/1700000000` });
      },
      { MEDIASERVER_STREAM_IDLE_MS: String(IDLE_MS) },
    );
    elsewhere = await startFake((app: Express) => app.use((_req, res) => res.type('image/jpeg').send(Buffer.from([0xff, 0xd8, 0xff]))));
    await world.sync();
    trackId = await world.trackId(track);
    user = await world.linkedUser();
    playlist = world.fake.media.playlists.create(user.token, 'Proxy Mix', 'audio', [track]);
    const sync = await user.client.post('/mediaserver/me/playlists/sync');
    expect((await pollTask(world.admin, sync.body.task_id, undefined, 60_000)).status).to.equal('completed');
  });
  after(async () => {
    await world.close();
    await elsewhere.close();
  });
  beforeEach(() => world.fake.clearRequests());

  const albumCover = async () => world.bytes(user.client, `/mediaserver/album/${await world.albumId(album)}/cover`);
  const playlistCover = () => world.bytes(user.client, `/mediaserver/me/playlists/${SERVER}::${playlist}/cover`);
  const play = (headers?: Record<string, string>) => world.bytes(user.client, `/mediaserver/play/track/${trackId}`, headers);
  const detailOf = (res: { body: Buffer }) => JSON.parse(res.body.toString('utf8')).detail as string;
  const expectProxied = (res: { headers: Headers }) => {
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(res.headers.get('content-security-policy')).to.equal('sandbox');
  };

  it('every proxied answer says nosniff: audio, transcode, album cover, playlist cover, and a failed one', async () => {
    for (const res of [await play(), await world.bytes(user.client, `/mediaserver/play/track/${trackId}/transcode.mp3`), await albumCover(), await playlistCover()]) {
      expect(res.status).to.equal(200);
      expectProxied(res);
    }
    world.fake.failNext(500, '/library/parts/');
    const failed = await play();
    expect(failed.status).to.equal(502);
    expectProxied(failed);
  });

  it('the image proxies pass only images: an HTML or untyped answer is a 502', async () => {
    world.fake.answerNext('/library/metadata/', (_req, res) => void res.status(200).type('text/html').send('<script>alert(1)</script>'));
    const html = await albumCover();
    expect(html.status).to.equal(502);
    expect(detailOf(html)).to.contain('text/html').and.contain('where an image was expected');
    expectProxied(html);
    world.fake.answerNext(`/playlists/${playlist}/composite/`, (_req, res) => void res.status(200).end(Buffer.from('<svg onload=x>')));
    expect((await playlistCover()).status).to.equal(502);
  });

  it('a cover past 20 MiB is a 502, not a buffer held in memory', async () => {
    world.fake.answerNext('/library/metadata/', (_req, res) => void res.status(200).type('image/jpeg').send(Buffer.alloc(21 * 1024 * 1024)));
    const res = await albumCover();
    expect(res.status).to.equal(502);
    expect(detailOf(res)).to.contain('more than 20 MiB');
  });

  it('the playlist cover goes out with the owner’s token; without a stored one it is a 412', async () => {
    const own = await world.linkedUser();
    const mix = world.fake.media.playlists.create(own.token, 'Own Mix', 'audio', [track]);
    const sync = await own.client.post('/mediaserver/me/playlists/sync');
    expect((await pollTask(world.admin, sync.body.task_id, undefined, 60_000)).status).to.equal('completed');
    world.fake.clearRequests();
    expect((await world.bytes(own.client, `/mediaserver/me/playlists/${SERVER}::${mix}/cover`)).status).to.equal(200);
    expect(world.fake.requestsTo(`/playlists/${mix}/composite/`).map((r) => r.headers['x-plex-token'])).to.deep.equal([own.token]);
    await world.app.ctx.db.deleteFrom('credentials').where('owner', '=', own.username).where('kind', '=', 'mediaserver_token').execute();
    expect((await world.bytes(own.client, `/mediaserver/me/playlists/${SERVER}::${mix}/cover`)).status).to.equal(412);
  });

  describe('redirects', () => {
    const toElsewhere = (_req: unknown, res: { redirect(status: number, url: string): void }) => res.redirect(302, `${elsewhere.url}/collect?from=fake`);
    afterEach(() => expect(elsewhere.requests, 'requests that reached the other origin').to.deep.equal([]));

    it('given a file part redirected to another host, then that host hears nothing and the play is a 502', async () => {
      world.fake.answerNext('/library/parts/', toElsewhere);
      const res = await play({ range: 'bytes=0-99' });
      expect(res.status).to.equal(502);
      expect(detailOf(res)).to.contain(`redirected to another origin (${elsewhere.url})`).and.not.contain('collect');
    });

    it('given a transcode redirected to another host, then 502', async () => {
      world.fake.answerNext('/music/', toElsewhere);
      expect((await world.bytes(user.client, `/mediaserver/play/track/${trackId}/transcode.mp3`)).status).to.equal(502);
    });

    it('given covers redirected to another host, then 502 for the album’s and the playlist’s', async () => {
      world.fake.answerNext('/library/metadata/', toElsewhere);
      expect((await albumCover()).status).to.equal(502);
      world.fake.answerNext(`/playlists/${playlist}/composite/`, toElsewhere);
      expect((await playlistCover()).status).to.equal(502);
    });

    it('given the server’s own API redirected to another host, then the admin call is a 502', async () => {
      world.fake.answerNext('/', toElsewhere);
      expect((await world.admin.post('/mediaserver/admin/libraries/refresh')).status).to.equal(502);
    });

    it('given a redirect on the server’s own origin, then it is followed with the token and the Range', async () => {
      world.fake.answerNext('/library/parts/', (req, res) => res.redirect(307, req.originalUrl));
      const res = await play({ range: 'bytes=0-99' });
      expect(res.status).to.equal(206);
      expect(res.body).to.have.length(100);
      const hops = world.fake.requestsTo('/library/parts/');
      expect(hops.map((r) => [r.headers['x-plex-token'], r.headers.range])).to.deep.equal([
        [world.fake.adminToken, 'bytes=0-99'],
        [world.fake.adminToken, 'bytes=0-99'],
      ]);
    });
  });

  describe('a server that stops sending', () => {
    const partId = () => Number(((world.fake.library.get(track).Media as any[])[0].Part as any[])[0].id);
    afterEach(() => world.fake.media.stalledParts.clear());

    it('given bytes then silence, then the response is cut and the upstream request closed after the idle time', async () => {
      world.fake.media.stalledParts.set(partId(), 16_384);
      const started = Date.now();
      const res = await fetch(`${world.app.url}/mediaserver/play/track/${trackId}`, { headers: { cookie: `media_session=${user.client.cookie('media_session')}` } });
      expect(res.status).to.equal(200);
      const reading = await res.arrayBuffer().then(
        () => 'ended',
        () => 'cut',
      );
      expect(reading).to.equal('cut');
      expect(Date.now() - started).to.be.within(IDLE_MS, IDLE_MS + 2000);
      const deadline = Date.now() + 2000;
      const read = () => world.fake.media.partReads.findLast((r) => r.partId === partId());
      while (!read()?.closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(read()).to.deep.include({ closed: true, finished: false });
    });

    it('given no answer at all, then a 502 after the idle time', async () => {
      world.fake.media.stalledParts.set(partId(), 0);
      const res = await play();
      expect(res.status).to.equal(502);
      expect(detailOf(res)).to.contain(`sent nothing for ${IDLE_MS / 1000} s`);
      expectProxied(res);
    });
  });
});
