import { expect } from 'chai';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { linkThroughBrowser, pollUntil } from '../../support/scrobbler.ts';
import { type ScrobblerFake, listHistory, startScrobblerFake } from '../../fakes/scrobbler/server.ts';

/** 2065-01-24: a scrobbler returns such dates for clients with a broken clock; past 2^31 - 1. */
const BROKEN_CLOCK_UTS = 3_000_000_000;

/** Well under the 5 s a command waits for its read models: nothing held it back. */
const PROMPT_MS = 2000;

describe('a scrobble dated 2065 in the mirror', () => {
  let fake: ScrobblerFake;
  let app: TestApp;
  let admin: ApiClient;
  let user: ApiClient;
  const now = Math.floor(Date.now() / 1000);

  before(async () => {
    fake = await startScrobblerFake();
    fake.state.addUser(
      'broken_clock',
      listHistory([
        { uts: BROKEN_CLOCK_UTS, artist: 'Low', track: 'Tomorrow Never Came' },
        { uts: now - 600, artist: 'Low', track: 'Lullaby' },
        { uts: now - 1200, artist: 'Low', track: 'Words' },
      ]),
    );
    app = await startTestApp(fake.env);
    admin = await signedInAdmin(app);
    ({ client: user } = await signedInAs(app, 'viewer'));
    await linkThroughBrowser(user, fake, 'broken_clock');
  });
  after(async () => {
    await app.close();
    await fake.close();
  });

  it('is mirrored as a future invalid scrobble, and the refresh answers without waiting', async () => {
    const started = performance.now();
    const refresh = await user.post('/scrobbler/me/refresh-mirror');
    expect(refresh.status).to.equal(200);
    expect(refresh.body.inserted).to.equal(3);
    expect(performance.now() - started).to.be.below(PROMPT_MS);
    const future = await admin.get('/admin/scrobbles/invalid?kind=future');
    expect(future.body.counts_by_kind).to.deep.equal({ all: 1, zero: 0, before_service: 0, future: 1 });
    expect(future.body.items[0]).to.include({ uts: BROKEN_CLOCK_UTS, invalid_kind: 'future', track: 'Tomorrow Never Came' });
  });

  it('is counted nowhere else: recent tracks and the dashboard hold the valid scrobbles only', async () => {
    const recent = await user.get('/scrobbler/me/recent-tracks');
    expect(recent.body.items.map((s: { track: string }) => s.track)).to.deep.equal(['Lullaby', 'Words']);
    const dashboard = (await user.get('/scrobbler/me/dashboard')).body;
    expect(dashboard.totals).to.deep.include({ scrobbles: 2, tracks: 2 });
    expect(dashboard.mirror).to.include({ scrobbles: 2, invalid_scrobbles: 1 });
  });

  it('stops no read model: every projector is live, notes are written and logout ends the session', async () => {
    const ready = await app.client().get('/readyz');
    expect(ready.status).to.equal(200);
    expect(ready.body.projectors.filter((p: { state: string }) => p.state !== 'live')).to.deep.equal([]);
    const note = await user.post('/me/comments/track/some-track', { body: 'from the future' });
    expect(note.status).to.equal(200);
    const cookie = user.cookie('media_session')!;
    expect((await user.post('/auth/logout')).status).to.equal(200);
    const stolen = app.client();
    stolen.setCookie('media_session', cookie);
    expect((await stolen.get('/auth/me')).status).to.equal(401);
  });

  it('is mirrored by the bulk import too, so the next refresh counts only what is new', async () => {
    const past = (i: number) => ({ uts: now - 3600 - i * 180, artist: 'Low', track: `Song ${i}` });
    const dated = [
      { uts: BROKEN_CLOCK_UTS, artist: 'Low', track: 'Tomorrow Never Came' },
      { uts: now + 3 * 86_400, artist: 'Low', track: 'Next Week' },
      ...Array.from({ length: 250 }, (_, i) => past(i)),
    ];
    fake.state.addUser('skewed_clock', listHistory(dated));
    const { client } = await signedInAs(app, 'viewer');
    await linkThroughBrowser(client, fake, 'skewed_clock');
    const start = await client.post('/scrobbler/me/scrobbles/bulk-import');
    const done = await pollUntil(() => client.get(`/me/tasks/${start.body.task_id}`), (r) => r.status === 200 && r.body.status !== 'running');
    expect(done.body).to.deep.include({ status: 'completed' });
    expect(done.body.summary.imported).to.equal(252);
    expect((await client.get('/scrobbler/me/recent-tracks')).body.total).to.equal(250);

    const fresh = [1, 2, 3].map((i) => ({ uts: now - 600 + i * 60, artist: 'Low', track: `New ${i}` }));
    fake.state.addUser('skewed_clock', listHistory([...dated.slice(0, 2), ...fresh.reverse(), ...dated.slice(2)]));
    const refresh = await client.post('/scrobbler/me/refresh-mirror');
    expect(refresh.body.inserted).to.equal(3);
  });
});
