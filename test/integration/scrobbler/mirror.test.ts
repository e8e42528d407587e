import { expect } from 'chai';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { linkThroughBrowser, pollUntil } from '../../support/scrobbler.ts';
import { type ScrobblerFake, generatedHistory, startScrobblerFake } from '../../fakes/scrobbler/server.ts';
import { scrobblesStream } from '../../../shared/streams.ts';

const NEWEST = 1_700_000_000;
const small = (count: number, newestUts = NEWEST) => generatedHistory({ count, newestUts, artists: 4, albumsPerArtist: 2, tracksPerAlbum: 3 });

async function finished(client: ApiClient, taskId: string) {
  const res = await pollUntil(() => client.get(`/me/tasks/${taskId}`), (r) => r.status === 200 && r.body.status !== 'running', 60_000);
  return res.body;
}

describe('scrobbler mirror: bulk import, refresh, recent tracks', () => {
  let fake: ScrobblerFake;
  let app: TestApp;

  before(async () => {
    fake = await startScrobblerFake();
    app = await startTestApp(fake.env);
  });
  beforeEach(() => {
    fake.state.errors.length = 0;
    fake.state.delayMs = 0;
  });
  after(async () => {
    await app.close();
    await fake.close();
  });

  async function linkedUser(scrobblerUser: string, count: number) {
    fake.state.addUser(scrobblerUser, small(count));
    const user = await signedInAs(app, 'viewer');
    const res = await linkThroughBrowser(user.client, fake, scrobblerUser);
    expect(res.status).to.equal(302);
    return user;
  }

  const importedEvents = async (username: string) => (await app.ctx.store.readStream(scrobblesStream(username))).filter((e) => e.type === 'ScrobblesImported');
  const requestsFor = (user: string) => fake.requests.filter((r) => r.query.method === 'user.getRecentTracks' && r.query.user === user);

  it('given no link, the listening endpoints answer empty results, and an import is refused with 412', async () => {
    const { client } = await signedInAs(app, 'viewer');
    expect((await client.get('/scrobbler/me/recent-tracks')).body).to.deep.equal({ items: [], total: 0, page: 1, limit: 50 });
    const refresh = await client.post('/scrobbler/me/refresh-mirror');
    expect(refresh.status).to.equal(200);
    expect(refresh.body).to.include({ inserted: 0, last_refreshed_at: null });
    expect((await client.get('/scrobbler/me/scrobbles/bulk-import/current')).body).to.equal(null);
    expect((await client.get('/scrobbler/me/scrobbles/bulk-import/history')).body).to.deep.equal({ items: [], total: 0, page: 1, limit: 50 });
    expect((await client.post('/scrobbler/me/scrobbles/bulk-import')).status).to.equal(412);
  });

  it('link → bulk import → recent tracks from the mirror, newest first, stamped with canonical ids', async () => {
    const { client, username } = await linkedUser('alice_fm', 450);
    const start = await client.post('/scrobbler/me/scrobbles/bulk-import');
    expect(start.status).to.equal(200);
    expect(start.body).to.include({ name: 'scrobbler.bulk_import', status: 'running', resumed_from_page: null });
    const task = await finished(client, start.body.task_id);
    expect(task.status).to.equal('completed');
    expect(task.summary).to.include({ imported: 450, total_pages: 3 });
    const walk = requestsFor('alice_fm');
    expect(walk.map((r) => r.query.page)).to.deep.equal(['1', '1', '1']);
    expect(walk.every((r) => r.query.limit === '200')).to.equal(true);
    expect(walk[0]!.query.to, 'the first page has no upper bound').to.equal(undefined);
    expect(walk.slice(1).map((r) => Number(r.query.to)), 'each window ends just past the oldest scrobble read').to.deep.equal([NEWEST - 199 * 180 + 1, NEWEST - 398 * 180 + 1]);

    fake.requests.length = 0;
    const recent = await client.get('/scrobbler/me/recent-tracks?limit=5');
    expect(fake.requests, 'recent tracks reads the mirror only').to.deep.equal([]);
    expect(recent.body.total).to.equal(450);
    expect(recent.body.items.map((s: { uts: number }) => s.uts)).to.deep.equal([0, 1, 2, 3, 4].map((i) => NEWEST - i * 180));
    const first = recent.body.items[0];
    expect(first).to.include({ scrobbler_username: 'alice_fm', played_at: new Date(NEWEST * 1000).toISOString() });
    expect(first.canonical_artist_id).to.be.a('string');
    expect(first.canonical_track_id).to.be.a('string');
    const artist = await client.get(`/artists/resolve?scrobbler=${encodeURIComponent(first.artist)}`);
    expect(artist.body.id).to.equal(first.canonical_artist_id);
    const track = await client.get(`/tracks/resolve?scrobbler=${encodeURIComponent(`${first.artist}::${first.track}`)}`);
    expect(track.status === 404 || track.body.id === first.canonical_track_id).to.equal(true);
    expect((await importedEvents(username)).length).to.equal(3);
    const history = await client.get('/scrobbler/me/scrobbles/bulk-import/history');
    expect(history.body.items.map((t: { task_id: string }) => t.task_id)).to.deep.equal([start.body.task_id]);
  });

  it('a re-import adds nothing: no new scrobble, no new event', async () => {
    const { client, username } = await linkedUser('bob_fm', 250);
    await finished(client, (await client.post('/scrobbler/me/scrobbles/bulk-import')).body.task_id);
    const events = (await importedEvents(username)).length;
    const again = await finished(client, (await client.post('/scrobbler/me/scrobbles/bulk-import')).body.task_id);
    expect(again).to.include({ status: 'completed' });
    expect(again.summary.imported).to.equal(0);
    expect((await importedEvents(username)).length).to.equal(events);
    expect((await client.get('/scrobbler/me/recent-tracks')).body.total).to.equal(250);
  });

  it('refresh-mirror reads one page, records only the new scrobbles and advances last_refreshed_at', async () => {
    const { client } = await linkedUser('carol_fm', 30);
    const first = await client.post('/scrobbler/me/refresh-mirror');
    expect(first.status).to.equal(200);
    expect(first.body).to.include({ inserted: 30, scrobbler_username: 'carol_fm' });
    const at = Date.parse(first.body.last_refreshed_at);
    fake.state.addUser('carol_fm', small(33, NEWEST + 3 * 180), { artist: 'Artist 1', track: 'Playing Now' });
    const second = await client.post('/scrobbler/me/refresh-mirror');
    expect(second.body.inserted).to.equal(3);
    expect(Date.parse(second.body.last_refreshed_at)).to.be.greaterThan(at);
    const third = await client.post('/scrobbler/me/refresh-mirror');
    expect(third.body.inserted).to.equal(0);
    expect(Date.parse(third.body.last_refreshed_at)).to.be.at.least(Date.parse(second.body.last_refreshed_at));
    const recent = await client.get('/scrobbler/me/recent-tracks?limit=100');
    expect(recent.body.total, 'the now-playing row is not a scrobble').to.equal(33);
    expect(recent.body.items.map((s: { track: string }) => s.track)).not.to.include('Playing Now');
  });

  it('two imports asked for at once start one task', async () => {
    const { client } = await linkedUser('ivan_fm', 10);
    fake.state.delayMs = 200;
    const [a, b] = await Promise.all([client.post('/scrobbler/me/scrobbles/bulk-import'), client.post('/scrobbler/me/scrobbles/bulk-import')]);
    expect(a.body.task_id).to.equal(b.body.task_id);
    const current = await client.get('/scrobbler/me/scrobbles/bulk-import/current');
    expect(current.body?.task_id ?? a.body.task_id).to.equal(a.body.task_id);
    await finished(client, a.body.task_id);
    expect((await client.get('/scrobbler/me/scrobbles/bulk-import/history')).body.total).to.equal(1);
  });

  it('cancel stops the import; the next import resumes at the page where it stopped', async () => {
    const { client } = await linkedUser('dave_fm', 2000);
    fake.state.delayMs = 500;
    const start = await client.post('/scrobbler/me/scrobbles/bulk-import');
    await pollUntil(() => client.get(`/me/tasks/${start.body.task_id}`), (r) => (r.body.progress?.page ?? 0) >= 1);
    const stranger = await signedInAs(app, 'viewer');
    expect((await stranger.client.delete(`/scrobbler/me/scrobbles/bulk-import/${start.body.task_id}`)).status, 'not the caller’s import').to.equal(404);
    const cancel = await client.delete(`/scrobbler/me/scrobbles/bulk-import/${start.body.task_id}`);
    expect(cancel.body).to.deep.equal({ task_id: start.body.task_id, was_running: true });
    const cancelled = await finished(client, start.body.task_id);
    expect(cancelled.status).to.equal('cancelled');
    const stoppedAt = cancelled.summary.cursor.pages + 1;
    expect(stoppedAt).to.be.within(2, 9);
    expect((await client.get('/scrobbler/me/scrobbles/bulk-import/current')).body).to.equal(null);

    fake.state.delayMs = 0;
    fake.requests.length = 0;
    const resumed = await client.post('/scrobbler/me/scrobbles/bulk-import');
    expect(resumed.body.resumed_from_page).to.equal(stoppedAt);
    expect((await finished(client, resumed.body.task_id)).status).to.equal('completed');
    const walk = requestsFor('dave_fm');
    expect(Number(walk[0]!.query.to), 'the window where the first run stopped').to.equal(cancelled.summary.cursor.to);
    expect(walk.length, 'no page read again: 2000 scrobbles are 11 windows with their one-scrobble overlaps').to.equal(11 - (stoppedAt - 1));
    expect((await client.get('/scrobbler/me/recent-tracks')).body.total).to.equal(2000);
  });

  it('survives transient upstream errors (29 rate limit, 11 offline) mid-import with backoff', async () => {
    const { client } = await linkedUser('erin_fm', 500);
    fake.state.inject({ code: 29, times: 2, method: 'user.getRecentTracks', status: 429 });
    fake.state.inject({ code: 11, times: 5, method: 'user.getRecentTracks', status: 503 });
    const task = await finished(client, (await client.post('/scrobbler/me/scrobbles/bulk-import')).body.task_id);
    expect(task.status).to.equal('completed');
    expect(task.summary.imported).to.equal(500);
    expect(fake.state.errors.every((e) => e.times === 0)).to.equal(true);
  });

  it('a refusal that is not transient fails the import, and the next one resumes', async () => {
    const { client } = await linkedUser('fred_fm', 500);
    fake.state.inject({ code: 17, skip: 1, method: 'user.getRecentTracks', message: 'Login: User required to be logged in' });
    const start = await client.post('/scrobbler/me/scrobbles/bulk-import');
    const failed = await finished(client, start.body.task_id);
    expect(failed.status).to.equal('failed');
    expect(failed.error).to.include('17');
    expect(requestsFor('fred_fm').length, 'no retry of a refusal').to.equal(2);
    const again = await client.post('/scrobbler/me/scrobbles/bulk-import');
    expect(again.body.resumed_from_page).to.equal(2);
    expect((await finished(client, again.body.task_id)).status).to.equal('completed');
    expect((await client.get('/scrobbler/me/recent-tracks')).body.total).to.equal(500);
  });

  it('a deleted account’s mirror goes with it; a namesake registered later imports it afresh', async () => {
    const { client, username } = await linkedUser('jane_fm', 12);
    expect((await client.post('/scrobbler/me/refresh-mirror')).body.inserted).to.equal(12);
    await finished(client, (await client.post('/scrobbler/me/scrobbles/bulk-import')).body.task_id);
    const admin = await signedInAdmin(app);
    expect((await admin.delete(`/auth/users/${username}`)).status).to.be.oneOf([200, 204]);
    const namesake = await signedInAs(app, 'viewer', username);
    expect((await namesake.client.get('/scrobbler/me/recent-tracks')).body.total).to.equal(0);
    expect((await namesake.client.get('/scrobbler/me/scrobbles/bulk-import/history')).body.total, 'the namesake’s imports are not theirs').to.equal(0);
    await linkThroughBrowser(namesake.client, fake, 'jane_fm');
    expect((await namesake.client.get('/scrobbler/me/recent-tracks')).body.total).to.equal(0);
    expect((await namesake.client.post('/scrobbler/me/refresh-mirror')).body.inserted).to.equal(12);
    expect((await namesake.client.get('/scrobbler/me/recent-tracks')).body.total).to.equal(12);
  });

  it('canonical-link stamps the caller’s scrobble, 403 on another user’s, 404 on unknown ids', async () => {
    const owner = await linkedUser('gina_fm', 5);
    const other = await signedInAs(app, 'viewer');
    await owner.client.post('/scrobbler/me/refresh-mirror');
    const [scrobble] = (await owner.client.get('/scrobbler/me/recent-tracks?limit=1')).body.items;
    const artist = (await owner.client.get('/artists/resolve?scrobbler=Someone%20Else')).body;
    const path = `/scrobbler/me/scrobbles/${scrobble.scrobble_id}/canonical-link`;
    const body = { canonical_artist_id: artist.id, canonical_album_id: null, canonical_track_id: null };
    expect((await other.client.post(path, body)).status).to.equal(403);
    const res = await owner.client.post(path, body);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ scrobble_id: scrobble.scrobble_id, canonical_artist_id: artist.id, canonical_album_id: null, canonical_track_id: null });
    const listed = (await owner.client.get('/scrobbler/me/recent-tracks?limit=1')).body.items[0];
    expect(listed.canonical_artist_id).to.equal(artist.id);
    expect((await owner.client.post('/scrobbler/me/scrobbles/nope/canonical-link', body)).status).to.equal(404);
    expect((await owner.client.post(path, { canonical_artist_id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' })).status).to.equal(404);
  });
});
