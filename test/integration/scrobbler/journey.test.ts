import { expect } from 'chai';
import { sql } from 'kysely';
import { dashboardProjector } from '../../../projectors/scrobbler/dashboard.projector.ts';
import { scrobblesProjector } from '../../../projectors/scrobbler/scrobbles.projector.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { linkThroughBrowser, pollUntil } from '../../support/scrobbler.ts';
import { type ScrobblerFake, generatedHistory, startScrobblerFake } from '../../fakes/scrobbler/server.ts';

const COUNT = 2000;
const history = generatedHistory({ count: COUNT, newestUts: Math.floor(Date.now() / 1000) - 3600, artists: 5, albumsPerArtist: 2, tracksPerAlbum: 3 });

/** What the fake's history holds, counted the way the dashboard's totals count it. */
function expectedTotals() {
  const artists = new Set<string>();
  const albums = new Set<string>();
  const tracks = new Set<string>();
  for (let i = 0; i < history.count; i++) {
    const s = history.at(i);
    artists.add(s.artist);
    albums.add(`${s.artist}::${s.album}`);
    tracks.add(`${s.artist}::${s.track}`);
  }
  return { scrobbles: history.count, artists: artists.size, albums: albums.size, tracks: tracks.size };
}

async function finished(client: ApiClient, taskId: string) {
  return (await pollUntil(() => client.get(`/me/tasks/${taskId}`), (r) => r.status === 200 && r.body.status !== 'running', 60_000)).body;
}

/** Every row of the dashboard and scrobbles read models, in a stable order. */
async function readModels(app: TestApp) {
  const out: Record<string, string[]> = {};
  for (const table of [...dashboardProjector.tables, ...scrobblesProjector.tables]) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(app.ctx.db);
    out[table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

describe('scrobbler journey: link → bulk import (cancel, resume, rate limit) → dashboard', () => {
  let fake: ScrobblerFake;
  let app: TestApp;
  let client: ApiClient;
  const recentTracksWindows = () => fake.requests.filter((r) => r.query.method === 'user.getRecentTracks').map((r) => r.query.to);
  let stoppedAt: { to: number | null; pages: number };

  before(async () => {
    fake = await startScrobblerFake();
    fake.state.addUser('journey_fm', history);
    app = await startTestApp(fake.env);
    ({ client } = await signedInAs(app, 'viewer', 'journey'));
  });
  after(async () => {
    await app.close();
    await fake.close();
  });

  it('given a linked account, when the import is cancelled mid-way, then it stops at a page short of the end', async () => {
    const linked = await linkThroughBrowser(client, fake, 'journey_fm');
    expect(linked.status).to.be.oneOf([200, 302, 303]);
    fake.state.delayMs = 300;
    const start = await client.post('/scrobbler/me/scrobbles/bulk-import');
    expect(start.status).to.equal(200);
    await pollUntil(() => client.get(`/me/tasks/${start.body.task_id}`), (r) => (r.body.progress?.page ?? 0) >= 2);
    const cancel = await client.delete(`/scrobbler/me/scrobbles/bulk-import/${start.body.task_id}`);
    expect(cancel.body).to.deep.equal({ task_id: start.body.task_id, was_running: true });
    const cancelled = await finished(client, start.body.task_id);
    expect(cancelled.status).to.equal('cancelled');
    expect(cancelled.summary.cursor.pages).to.be.within(2, 9);
    stoppedAt = cancelled.summary.cursor;
    expect((await client.get('/scrobbler/me/recent-tracks')).body.total).to.be.below(COUNT);
  });

  it('when it resumes and the scrobbler answers 29 (rate limit) mid-way, then it completes without duplicates', async () => {
    fake.state.delayMs = 0;
    fake.requests.length = 0;
    fake.state.inject({ code: 29, times: 2, skip: 2, method: 'user.getRecentTracks', status: 429 });
    const resumed = await client.post('/scrobbler/me/scrobbles/bulk-import');
    expect(resumed.body.resumed_from_page).to.be.a('number').and.to.be.above(1);
    const task = await finished(client, resumed.body.task_id);
    expect(task.status).to.equal('completed');
    expect(fake.state.errors.every((e) => e.times === 0), 'the rate limit was met').to.equal(true);
    expect(resumed.body.resumed_from_page).to.equal(stoppedAt.pages + 1);
    expect(Number(recentTracksWindows()[0])).to.equal(stoppedAt.to);
    expect((await client.get('/scrobbler/me/recent-tracks')).body.total).to.equal(COUNT);
    const { rows } = await sql<{ n: number; distinct_n: number }>`select count(*)::int as n, count(distinct scrobble_id)::int as distinct_n from scrobbles`.execute(app.ctx.db);
    expect(rows[0]).to.deep.equal({ n: COUNT, distinct_n: COUNT });
  });

  it('when the history is imported again, then nothing is added', async () => {
    const again = await finished(client, (await client.post('/scrobbler/me/scrobbles/bulk-import')).body.task_id);
    expect(again.status).to.equal('completed');
    expect(again.summary.imported).to.equal(0);
    expect((await client.get('/scrobbler/me/recent-tracks')).body.total).to.equal(COUNT);
  });

  it('then the dashboard is ready and its totals equal the fake’s history', async () => {
    const res = await client.get('/scrobbler/me/dashboard');
    expect(res.status).to.equal(200);
    expect(res.body.state).to.equal('ready');
    expect(res.body.totals).to.deep.equal(expectedTotals());
    expect(res.body.mirror).to.include({ scrobbler_username: 'journey_fm', scrobbles: COUNT, invalid_scrobbles: 0 });
  });

  it('when the dashboard and scrobbles read models are rebuilt from the log, then they equal the live ones', async () => {
    const live = await readModels(app);
    expect(live.dashboard_scrobbles).to.not.be.empty;
    await app.ctx.projections!.rebuild([dashboardProjector.name, scrobblesProjector.name]);
    expect(await readModels(app)).to.deep.equal(live);
    expect((await client.get('/scrobbler/me/dashboard')).body.totals).to.deep.equal(expectedTotals());
  });
});
