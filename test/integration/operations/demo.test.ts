import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Demo, DEMO_LOGIN, startDemo } from '../../../demo/start-demo.ts';
import { ApiClient } from '../../support/api.ts';

describe('npm run demo', () => {
  const root = mkdtempSync(join(tmpdir(), 'music-library-demo-'));
  const dataDir = join(root, 'demo-data');
  const operatorDataDir = join(root, 'operator-data');
  const savedDataDir = process.env.DATA_DIR;
  let demo: Demo;
  let client: ApiClient;

  before(async function () {
    this.timeout(60_000);
    mkdirSync(operatorDataDir);
    process.env.DATA_DIR = operatorDataDir;
    demo = await startDemo({ dataDir, port: 0, logLevel: 'silent' });
    client = new ApiClient(demo.url);
  });
  after(async () => {
    await demo?.close();
    if (savedDataDir === undefined) delete process.env.DATA_DIR;
    else process.env.DATA_DIR = savedDataDir;
    rmSync(root, { recursive: true, force: true });
  });

  it('given the demo started, when signing in as demo / demo, then the session is the demo admin', async () => {
    const login = await client.post('/auth/login', DEMO_LOGIN);
    expect(login.status).to.equal(200);
    expect(login.body).to.include({ username: 'demo', role: 'admin' });
  });

  it('when the library is listed, then every sample album is playable, with a cover', async () => {
    const albums = await client.get('/library/albums?filter=playable&sort=name');
    expect(albums.status).to.equal(200);
    expect(albums.body.total).to.be.at.least(3);
    expect(albums.body.items.every((a: { playable: boolean }) => a.playable)).to.equal(true);
    const cover = await bytes(`/mediaserver/album/${albums.body.items[0].id}/cover`);
    expect(cover.status).to.equal(200);
    expect(cover.headers.get('content-type')).to.contain('image/');
  });

  it('when a track of an album is played, then the stream answers 200 with WAV audio', async () => {
    const album = (await client.get('/library/albums?filter=playable&sort=name')).body.items[0];
    const tracks = await client.get(`/mediaserver/play/album-tracks/${album.id}`);
    const trackId = tracks.body.by_position['1::1'] as string;
    const stream = await bytes(`/mediaserver/play/track/${trackId}`);
    expect(stream.status).to.equal(200);
    expect(stream.headers.get('content-type')).to.match(/^audio\//);
    expect(stream.body.subarray(0, 4).toString('ascii')).to.equal('RIFF');
    expect(stream.body.length).to.be.above(100_000);
  });

  it('when the dashboard is read, then it is ready with the imported history', async () => {
    const dashboard = await client.get('/scrobbler/me/dashboard');
    expect(dashboard.body.state).to.equal('ready');
    expect(dashboard.body.totals.scrobbles).to.be.above(0);
  });

  it('when the links are read, then the media server and the scrobbler show as linked', async () => {
    const mediaserver = await client.get('/mediaserver/me');
    expect(mediaserver.body).to.include({ linked: true, has_pending_pin: false });
    expect((await client.get('/auth/me')).body.scrobbler_username).to.be.a('string').and.not.equal('');
  });

  it('then its data is in its own directory and DATA_DIR is left untouched', () => {
    expect(readdirSync(dataDir).length).to.be.above(1);
    expect(readdirSync(operatorDataDir)).to.deep.equal([]);
  });

  it('given a non-empty directory of something else, when the demo is pointed at it, then it refuses and leaves it alone', async () => {
    const other = join(root, 'precious');
    mkdirSync(other);
    writeFileSync(join(other, 'keep.txt'), 'mine');
    let refused: unknown;
    await startDemo({ dataDir: other, port: 0, logLevel: 'silent' }).catch((error: unknown) => (refused = error));
    expect(String(refused)).to.contain('not empty');
    expect(existsSync(join(other, 'keep.txt'))).to.equal(true);
  });

  async function bytes(path: string) {
    const res = await fetch(demo.url + path, { headers: { cookie: `media_session=${client.cookie('media_session')}` } });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  }
});
