import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { type LyricsFake, RECORDED, startLyricsFake } from '../../fakes/lyrics/server.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { albumSeen, artistSeen, trackSeen } from '../../support/observations.ts';
import { pollTask } from '../tasks/test-tasks.ts';

const OST = "Baldur's Gate 3 (Original Game Soundtrack)";

describe('lyrics: the drain, coverage, GET /tracks/{id}/lyrics with on-demand look-up', () => {
  let fake: LyricsFake;
  let app: TestApp;
  let admin: ApiClient;
  let viewer: ApiClient;
  const ids = {} as Record<'live' | 'theme' | 'unknown' | 'broken' | 'later' | 'searched', string>;

  before(async () => {
    fake = await startLyricsFake();
    fake.state.records.push(RECORDED.found(), { ...RECORDED.instrumental(), id: 2, trackName: 'Main Theme', duration: 180 });
    app = await startTestApp(fake.env);
    admin = await signedInAdmin(app);
    viewer = (await signedInAs(app, 'viewer')).client;
    const by = artistSeen('mediaserver', 'mediaserver::srv::a1', 'Borislav Slavov');
    const on = albumSeen('mediaserver', 'mediaserver::srv::b1', OST, by);
    const track = (key: string, name: string, duration_ms?: number) => reconcile(app.ctx, trackSeen('mediaserver', `mediaserver::srv::${key}`, name, by, on, duration_ms ? { duration_ms } : {}));
    ids.broken = await track('t0', 'A Broken Song', 100_000);
    ids.live = await track('t1', 'I Want to Live', 233_400);
    ids.theme = await track('t2', 'Main Theme', 180_000);
    ids.unknown = await track('t3', 'Unknown Song', 120_000);
  });
  after(async () => {
    await app.close();
    await fake.close();
  });

  async function run(path: string) {
    const res = await admin.post(`/admin/canonical/enrich/${path}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return pollTask(admin, res.body.task_id, undefined, 30_000);
  }
  const coverage = async () => (await admin.get('/admin/canonical/enrich/lyrics-coverage')).body;
  const lyrics = async (id: string, query = '') => viewer.get(`/tracks/${id}/lyrics${query}`);

  it('given tracks never tried, when a batch of one runs and then the drain, then each is looked up by artist, title, album and length', async () => {
    expect(await coverage()).to.deep.equal({ eligible: 4, with_lyrics: 0, synced: 0, instrumentals: 0, not_found: 0, backlog: 4, errors: 0 });
    fake.state.broken.add('A Broken Song');
    const first = await run('lyrics?limit=1');
    expect(first.summary).to.include({ processed: 1, failed: 1, finished: false });
    const rest = await run('lyrics?drain=true');
    // The drain walks on from the first run's cursor and round to the start: the broken track is tried again.
    expect(rest.summary).to.include({ processed: 4, failed: 1, finished: true });
    const asked = fake.requestsTo('/api/get').find((r) => r.query.track_name === 'I Want to Live');
    expect(asked?.query).to.deep.equal({ track_name: 'I Want to Live', artist_name: 'Borislav Slavov', album_name: OST, duration: '233' });
    expect(await coverage()).to.deep.equal({ eligible: 4, with_lyrics: 1, synced: 1, instrumentals: 1, not_found: 1, backlog: 1, errors: 1 });
  });

  it('answers plain text and synced lines parsed from LRC, an instrumental as such, and none as 200 not_found', async () => {
    const found = (await lyrics(ids.live)).body;
    expect(found).to.include({ track_id: ids.live, state: 'found', reason: null });
    expect(found.plain.split('\n')[0]).to.equal('I feel your breath upon my neck');
    expect(found.synced[0]).to.deep.equal({ time_ms: 17_120, text: 'I feel your breath upon my neck' });
    expect(found.synced.at(-1)).to.deep.equal({ time_ms: 205_720, text: '' });
    expect((await lyrics(ids.theme)).body).to.deep.equal({ track_id: ids.theme, state: 'instrumental', plain: null, synced: null, reason: null });
    const none = await lyrics(ids.unknown);
    expect(none.status).to.equal(200);
    expect(none.body).to.include({ state: 'not_found' });
    expect((await lyrics('no-such-track')).status).to.equal(404);
  });

  it('clears the error row once the track is looked up without a fault', async () => {
    const row = (await admin.get('/admin/canonical/enrich/errors?source=lyrics')).body.items;
    expect(row.map((r: { canonical_id: string; attempts: number }) => [r.canonical_id, r.attempts])).to.deep.equal([[ids.broken, 2]]);
    fake.state.broken.clear();
    expect((await run('lyrics')).summary).to.include({ processed: 1, failed: 0 });
    expect((await admin.get('/admin/canonical/enrich/errors')).body.counts).to.deep.equal({});
    expect(await coverage()).to.include({ backlog: 0, not_found: 2, errors: 0 });
  });

  it('given a track never tried, then enrich=false answers not_found without asking, and the default asks once and records the answer', async () => {
    const by = artistSeen('mediaserver', 'mediaserver::srv::a1', 'Borislav Slavov');
    const on = albumSeen('mediaserver', 'mediaserver::srv::b1', OST, by);
    ids.later = await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::t4', 'Main Theme (Reprise)', by, on, { duration_ms: 90_000 }));
    fake.add({ trackName: 'Main Theme (Reprise)', artistName: 'Borislav Slavov', albumName: OST, duration: 90, plainLyrics: 'La la', syncedLyrics: '[00:01.00] La la' });
    fake.clearRequests();
    expect((await lyrics(ids.later, '?enrich=false')).body).to.deep.equal({ track_id: ids.later, state: 'not_found', plain: null, synced: null, reason: 'not looked up yet' });
    expect(fake.requests).to.have.length(0);
    expect((await lyrics(ids.later)).body).to.deep.equal({ track_id: ids.later, state: 'found', plain: 'La la', synced: [{ time_ms: 1000, text: 'La la' }], reason: null });
    expect((await lyrics(ids.later)).body.state).to.equal('found');
    expect(fake.requests).to.have.length(1);
  });

  it('given the provider failing, then the on-demand look-up makes one request and answers not_found with the reason, recording nothing', async () => {
    const by = artistSeen('mediaserver', 'mediaserver::srv::a1', 'Borislav Slavov');
    const on = albumSeen('mediaserver', 'mediaserver::srv::b1', OST, by);
    ids.searched = await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::t5', 'I Want to Live (Live)', by, on));
    fake.clearRequests();
    fake.state.failures.push(503);
    const failed = (await lyrics(ids.searched)).body;
    expect(failed).to.include({ state: 'not_found' });
    expect(failed.reason).to.match(/503/);
    expect(fake.requests).to.have.length(1);
    expect(fake.requests[0]!.path).to.equal('/api/search');
    expect(await coverage()).to.include({ backlog: 1 });
  });

  it('rebuilds the same lyrics from the log alone', async () => {
    const before = await Promise.all([lyrics(ids.live), lyrics(ids.theme), lyrics(ids.later)]);
    fake.clearRequests();
    const res = await admin.post('/admin/canonical/rebuild');
    expect((await pollTask(admin, res.body.task_id, undefined, 30_000)).status).to.equal('completed');
    const after = await Promise.all([lyrics(ids.live), lyrics(ids.theme), lyrics(ids.later)]);
    expect(after.map((r) => r.body)).to.deep.equal(before.map((r) => r.body));
    expect(fake.requests).to.have.length(0);
  });
});
