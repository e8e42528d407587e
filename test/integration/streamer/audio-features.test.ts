import { expect } from 'chai';
import { audioFeaturesSchedule } from '../../../command/streamer/audio-features.schedule.ts';
import { loadConfig } from '../../../infra/config.ts';
import type { AppContext } from '../../../infra/context.ts';
import { STREAMER_AUDIO_FEATURES_TASK } from '../../../shared/streamer.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { pollUntil } from '../../support/scrobbler.ts';
import { linkStreamer, smallLibrary, syncAndWait } from '../../support/streamer.ts';
import { type StreamerFake, startStreamerFake } from '../../fakes/streamer/server.ts';

describe('streamer audio features: the daily task and GET /admin/streamer/audio-features-cron-status', () => {
  let fake: StreamerFake;
  let app: TestApp;
  let admin: ApiClient;

  before(async () => {
    fake = await startStreamerFake();
    app = await startTestApp(fake.env);
    admin = await signedInAdmin(app);
    smallLibrary(fake, 'ann-account');
    const { client } = await signedInAs(app, 'viewer');
    await linkStreamer(client, fake, 'ann-account');
    await syncAndWait(client, app);
  });
  after(async () => {
    await app.close();
    await fake.close();
  });

  async function run() {
    const { task_id } = await app.ctx.tasks.start(STREAMER_AUDIO_FEATURES_TASK, {}, null);
    await app.ctx.tasks.idle();
    return pollUntil(async () => (await admin.get(`/admin/task-history/${task_id}`)).body, (t) => t.status !== undefined && t.status !== 'running');
  }

  it('is scheduled daily, and off while the streamer is not configured', () => {
    expect(audioFeaturesSchedule.everyMs).to.equal(24 * 3600_000);
    expect(audioFeaturesSchedule.enabled(app.ctx)).to.equal(true);
    expect(audioFeaturesSchedule.enabled({ config: loadConfig({}) } as AppContext)).to.equal(false);
  });

  it('given the endpoint answers 403, then runs are fetch_failed and the status flags it deprecated', async () => {
    fake.state.audioFeaturesForbidden = true;
    const first = await run();
    expect(first.status).to.equal('fetch_failed');
    await run();
    const status = await admin.get('/admin/streamer/audio-features-cron-status');
    expect(status.status).to.equal(200);
    expect(status.body).to.include({ configured: true, every_hours: 24, deprecated: true });
    expect(status.body.pending_tracks).to.be.greaterThan(0);
    expect(status.body.runs).to.have.length(2);
    for (const r of status.body.runs) expect(r).to.include({ status: 'fetch_failed', calls: 1, forbidden: 1, fetched: 0 });
    const asked = fake.requestsTo('/v1/audio-features').at(-1)!;
    expect(asked.headers.authorization).to.match(/^Bearer app-/);
    const listed = await admin.get('/admin/task-history?status=fetch_failed');
    expect(listed.body.items.map((t: { task_id: string }) => t.task_id)).to.include(first.task_id);
    expect((await admin.get('/admin/streamer/audio-features-cron-status?limit=1')).body.runs).to.have.length(1);
  });

  it('given the endpoint answers, then the features are kept, nothing is left pending and it is no longer flagged', async () => {
    fake.state.audioFeaturesForbidden = false;
    const done = await run();
    expect(done.status).to.equal('completed');
    expect(done.summary).to.include({ outcome: 'ok', forbidden: 0 });
    expect(done.summary.fetched).to.equal(done.summary.candidates);
    const status = await admin.get('/admin/streamer/audio-features-cron-status');
    expect(status.body).to.include({ deprecated: false, pending_tracks: 0 });
    expect((await run()).summary).to.include({ outcome: 'nothing_to_do', calls: 0 });
  });

  it('is for admins only', async () => {
    const { client } = await signedInAs(app, 'viewer');
    expect((await client.get('/admin/streamer/audio-features-cron-status')).status).to.equal(403);
  });
});
