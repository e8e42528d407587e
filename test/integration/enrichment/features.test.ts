import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { type FeaturesFake, KEY_ONLY, NASCENCE, startFeaturesFake } from '../../fakes/features/server.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { albumSeen, artistSeen, trackSeen } from '../../support/observations.ts';
import { pollTask } from '../tasks/test-tasks.ts';

const LIKE_A = '11111111-1111-4111-8111-111111111111';
const LIKE_B = '22222222-2222-4222-8222-222222222222';
const UNKNOWN = '33333333-3333-4333-8333-333333333333';
const LATER = '44444444-4444-4444-8444-444444444444';

describe('features: POST /admin/features/backfill and GET /admin/features/status', () => {
  let fake: FeaturesFake;
  let app: TestApp;
  let admin: ApiClient;
  const ids = {} as Record<'nascence' | 'keyOnly' | 'likeA' | 'likeB' | 'unknown' | 'later' | 'plain', string>;
  const by = artistSeen('metabase', '78f15956-c5e1-46d6-a46b-fa6f46681ec8', 'Austin Wintory');
  const on = albumSeen('metabase', 'd1850227-c7c7-42c8-b469-6e99023412de', 'Journey', by);

  before(async () => {
    fake = await startFeaturesFake();
    fake.addLike(LIKE_A);
    fake.addLike(LIKE_B);
    fake.addLike(LATER);
    // The provider says "more than 2" for three ids: the client must split.
    fake.state.maxRecordings = 2;
    app = await startTestApp(fake.env);
    admin = await signedInAdmin(app);
    const track = (mbid: string, name: string) => reconcile(app.ctx, trackSeen('metabase', mbid, name, by, on));
    ids.nascence = await track(NASCENCE, 'Nascence');
    ids.keyOnly = await track(KEY_ONLY, 'Key Only');
    ids.likeA = await track(LIKE_A, 'Like A');
    ids.likeB = await track(LIKE_B, 'Like B');
    ids.unknown = await track(UNKNOWN, 'Unknown To It');
    ids.plain = await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::p1', 'No Recording Ref', artistSeen('mediaserver', 'mediaserver::srv::a1', 'Someone'), albumSeen('mediaserver', 'mediaserver::srv::b1', 'Elsewhere', artistSeen('mediaserver', 'mediaserver::srv::a1', 'Someone'))));
  });
  after(async () => {
    await app.close();
    await fake.close();
  });

  async function backfill(query = '') {
    const res = await admin.post(`/admin/features/backfill${query}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ name: 'features.backfill', status: 'running' });
    return pollTask(admin, res.body.task_id, undefined, 30_000);
  }
  const status = async () => (await admin.get('/admin/features/status')).body;
  const asked = (path: string) => fake.requestsTo(path).map((r) => r.query.recording_ids!.split(';'));

  it('given tracks with a recording ref, when a batch of three runs, then three ids are asked in bulk, split to the provider’s limit after its 400', async () => {
    expect(await status()).to.deep.equal({ looked_up: 0, positive: 0, negative: 0, remaining: 5, errors: 0 });
    const run = await backfill('?limit=3');
    expect(run.status).to.equal('completed');
    expect(run.summary).to.include({ processed: 3, failed: 0, finished: false });
    expect(asked('/api/v1/low-level').map((r) => r.length)).to.deep.equal([3, 2, 1]);
    expect(asked('/api/v1/high-level').map((r) => r.length)).to.deep.equal([3, 2, 1]);
    expect(fake.requestsTo('/api/v1/low-level')[1]!.query.features).to.equal('rhythm.bpm;tonal.key_key;tonal.key_scale');
    const s = await status();
    expect(s).to.include({ looked_up: 3, remaining: 2, errors: 0 });
    expect(s.positive + s.negative).to.equal(3);
  });

  it('when it runs again, then the next batch only: no id asked twice, in requests of the learnt size, and the numbers add up', async () => {
    fake.clearRequests();
    const run = await backfill();
    expect(run.summary).to.include({ processed: 2, failed: 0, finished: true });
    const low = asked('/api/v1/low-level');
    expect(low.map((r) => r.length)).to.deep.equal([2]);
    expect(await status()).to.deep.equal({ looked_up: 5, positive: 4, negative: 1, remaining: 0, errors: 0 });
    fake.clearRequests();
    expect((await backfill()).summary).to.include({ processed: 0 });
    expect(fake.requests).to.have.length(0);
  });

  it('puts feature_data on the track docs: tempo, key, moods and genres; null where the provider has none', async () => {
    const doc = async (id: string) => (await admin.get(`/tracks/${id}`)).body;
    const nascence = (await doc(ids.nascence)).feature_data;
    expect(nascence).to.include({ bpm: 139.9, key: 'D major' });
    expect(nascence.moods).to.include({ relaxed: 0.9952, sad: 0.9532, happy: 0.0581 });
    expect(nascence.genres).to.include({ folkcountry: 0.5091 });
    expect((await doc(ids.keyOnly)).feature_data).to.deep.equal({ bpm: null, key: 'D', moods: {}, genres: {} });
    expect((await doc(ids.unknown)).feature_data).to.equal(null);
    expect((await doc(ids.plain)).feature_data).to.equal(null);
    const history = (await admin.get(`/tracks/${ids.likeA}/history`)).body as { type: string; data: { source: string; ref: unknown } }[];
    const enriched = history.filter((h) => h.type === 'EntityEnriched');
    expect(enriched.map((h) => [h.data.source, h.data.ref])).to.deep.equal([['features', { source: 'metabase', external_id: LIKE_A }]]);
  });

  it('given the provider failing, then the track is an error row, and it clears when a later run finds it', async () => {
    ids.later = await reconcile(app.ctx, trackSeen('metabase', LATER, 'Later', by, on));
    // Four attempts (one and three retries) of each of the two bulk requests.
    fake.state.failures.push(...Array(8).fill(503));
    expect((await backfill()).summary).to.include({ processed: 1, failed: 1 });
    expect(await status()).to.include({ remaining: 1, errors: 1 });
    const rows = (await admin.get('/admin/canonical/enrich/errors?source=features')).body.items;
    expect(rows.map((r: { canonical_id: string }) => r.canonical_id)).to.deep.equal([ids.later]);
    expect((await backfill()).summary).to.include({ processed: 1, failed: 0 });
    expect(await status()).to.deep.equal({ looked_up: 6, positive: 5, negative: 1, remaining: 0, errors: 0 });
  });

  it('rebuilds the same feature_data from the log alone, without a request', async () => {
    const all = () => Promise.all(Object.values(ids).map((id) => admin.get(`/tracks/${id}`)));
    const strip = (r: { body: Record<string, unknown> }) => ({ ...r.body, updated_at: undefined, created_at: undefined });
    const before = (await all()).map(strip);
    const statusBefore = await status();
    fake.clearRequests();
    const res = await admin.post('/admin/canonical/rebuild');
    expect((await pollTask(admin, res.body.task_id, undefined, 30_000)).status).to.equal('completed');
    expect((await all()).map(strip)).to.deep.equal(before);
    expect(await status()).to.deep.equal(statusBefore);
    expect(fake.requests).to.have.length(0);
  });

  it('is for admins only', async () => {
    const viewer = (await signedInAs(app, 'viewer')).client;
    expect((await viewer.get('/admin/features/status')).status).to.equal(403);
    expect((await viewer.post('/admin/features/backfill')).status).to.equal(403);
    expect((await admin.post('/admin/features/backfill?limit=0')).status).to.equal(422);
  });
});
