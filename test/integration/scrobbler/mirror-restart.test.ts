import { expect } from 'chai';
import type { DatabaseHandle } from '../../../infra/db/create-db.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { freshDatabase } from '../../support/database.ts';
import { signedInAs } from '../../support/given.ts';
import { linkThroughBrowser, pollUntil } from '../../support/scrobbler.ts';
import { type ScrobblerFake, generatedHistory, startScrobblerFake } from '../../fakes/scrobbler/server.ts';

const history = () => generatedHistory({ count: 2000, artists: 3, albumsPerArtist: 2, tracksPerAlbum: 2 });

async function finished(client: ApiClient, taskId: string) {
  return (await pollUntil(() => client.get(`/me/tasks/${taskId}`), (r) => r.status === 200 && r.body.status !== 'running', 60_000)).body;
}

/** What the read model holds, in a stable order, to compare a rebuild with the live one. */
async function snapshot(app: TestApp) {
  const scrobbles = await app.ctx.db.selectFrom('scrobbles').selectAll().orderBy('scrobble_id').execute();
  const mirror = await app.ctx.db.selectFrom('scrobble_mirror').select(['username_key', 'scrobbler_username', 'scrobble_count', 'valid_count', 'newest_uts', 'oldest_uts']).orderBy('username_key').execute();
  return JSON.stringify({ scrobbles, mirror });
}

describe('scrobbler mirror across a restart, and rebuilt from the log', () => {
  let fake: ScrobblerFake;
  let database: DatabaseHandle;
  let second: TestApp | undefined;
  const env = () => ({ ...fake.env, SECRET_KEY: 'mirror-restart-secret-key-0123456789abcdef', JWT_SECRET: 'mirror-restart-jwt-secret-0123456789abcdef' });

  before(async () => {
    fake = await startScrobblerFake();
    fake.state.addUser('hal_fm', history());
    database = await freshDatabase();
  });
  after(async () => {
    if (second) await second.close();
    else await database.close();
    await fake.close();
  });

  it('an import interrupted by a stop resumes at its window on the next start, and completes', async () => {
    const first = await startTestApp(env(), database, { keepDatabase: true });
    const { client, username, password } = await signedInAs(first, 'viewer', 'hal');
    await linkThroughBrowser(client, fake, 'hal_fm');
    fake.state.delayMs = 400;
    const start = await client.post('/scrobbler/me/scrobbles/bulk-import');
    await pollUntil(() => client.get(`/me/tasks/${start.body.task_id}`), (r) => (r.body.progress?.page ?? 0) >= 1);
    await first.close();
    const pagesBefore = fake.requests.filter((r) => r.query.method === 'user.getRecentTracks').length;

    fake.state.delayMs = 0;
    second = await startTestApp(env(), database);
    const again = second.client();
    expect((await again.post('/auth/login', { username, password })).status).to.equal(200);
    const task = await finished(again, start.body.task_id);
    expect(task.status).to.equal('completed');
    const after = fake.requests.filter((r) => r.query.method === 'user.getRecentTracks').slice(pagesBefore);
    // It continues below the window already read, not from the newest scrobble again.
    expect(after[0]!.query.to, 'the resumed request reads a window below the first').to.match(/^\d+$/);
    expect((await again.get('/scrobbler/me/recent-tracks')).body.total).to.equal(2000);
  });

  it('a rebuilt scrobbles read model equals the live one', async () => {
    const live = await snapshot(second!);
    await second!.ctx.projections!.rebuild(['scrobbles']);
    expect(await snapshot(second!)).to.equal(live);
  });
});
