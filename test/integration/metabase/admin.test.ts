import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { artist, recording, release, releaseGroup } from '../../fakes/metabase/builders.ts';
import { type MetabaseFake, startMetabaseFake } from '../../fakes/metabase/server.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin } from '../../support/given.ts';
import { albumSeen, artistSeen, trackSeen } from '../../support/observations.ts';
import { pollTask } from '../tasks/test-tasks.ts';

describe('metabase admin: albums by barcode, tracks by ISRC, health', () => {
  let fake: MetabaseFake;
  let app: TestApp;
  let admin: ApiClient;
  const band = artist({ name: 'Barcode Band' });
  const first = recording({ title: 'First Song' });
  const second = recording({ title: 'Second Song' });
  const group = releaseGroup({ title: 'Scanned', by: band, date: '2004-05-06' });
  const edition = release({ title: 'Scanned', barcode: '5000000000017', group, tracks: [{ title: 'First Song', recording: first }, { title: 'Second Song', recording: second }] });
  const ids = {} as Record<'album' | 'miss' | 'one' | 'two' | 'teen' | 'unknown', string>;

  before(async () => {
    fake = await startMetabaseFake();
    for (const [kind, payload] of [['artist', band], ['release-group', group], ['release', edition], ['recording', first], ['recording', second]] as const) fake.state.add(kind, payload);
    app = await startTestApp({ ...fake.env, METABASE_CONTACT: 'ops@example.org' });
    admin = await signedInAdmin(app);
    const by = artistSeen('catalog', '700', 'Barcode Band');
    const album = albumSeen('catalog', '701', 'Scanned', by, { upc: '5000000000017' });
    ids.one = await reconcile(app.ctx, trackSeen('catalog', '702', 'First Song', by, album, { disc: 1, track_number: 1 }));
    ids.two = await reconcile(app.ctx, trackSeen('catalog', '703', 'Second Song', by, album, { disc: 1, track_number: 2 }));
    ids.album = (await admin.get('/albums/resolve?catalog=701')).body.id;
    ids.miss = await reconcile(app.ctx, albumSeen('catalog', '710', 'Nowhere', by, { upc: '5000000000024' }));
    ids.teen = await reconcile(app.ctx, trackSeen('catalog', '720', 'Smells Like Teen Spirit', by, album, { isrc: 'USGF19942501' }));
    ids.unknown = await reconcile(app.ctx, trackSeen('catalog', '721', 'Nobody Knows', by, album, { isrc: 'ZZZZZ0000001' }));
  });
  after(async () => {
    await app.close();
    await fake.closeAll();
  });

  const refsOf = async (kind: string, id: string) => ((await admin.get(`/${kind}s/${id}`)).body.refs as { source: string; external_id: string }[]).filter((r) => r.source === 'metabase').map((r) => r.external_id);
  const errorKeys = async (source: string) => ((await admin.get(`/admin/canonical/enrich/errors?source=${source}`)).body.items as { key: string }[]).map((r) => r.key);

  it('links albums by barcode to their release and release group, and their tracks by position; a barcode no release carries is an error row', async () => {
    const res = await admin.post('/metabase/admin/enrich-catalog-albums');
    expect(res.status).to.equal(200);
    const task = await pollTask(admin, res.body.task_id, undefined, 60_000);
    expect(task.summary).to.include({ processed: 2, failed: 1 });
    expect(await refsOf('album', ids.album)).to.have.members([edition.id, group.id]);
    expect(await refsOf('track', ids.one)).to.deep.equal([first.id]);
    expect(await refsOf('track', ids.two)).to.deep.equal([second.id]);
    expect((await admin.get(`/albums/${ids.album}`)).body).to.include({ primary_type: 'Album', upc: '5000000000017' });
    expect(await errorKeys('mb_barcode')).to.deep.equal([`mb_barcode:album:${ids.miss}`]);
    expect(fake.requestsTo('/release').map((r) => r.query.query ?? r.path)).to.include.members(['barcode:5000000000017', '/ws/2/release/' + edition.id]);
  });

  it('reports the ISRC backlog, binds tracks to the recording carrying their ISRC, and files an unknown ISRC', async () => {
    const before = (await admin.get('/metabase/admin/isrc-link-status')).body;
    expect(before).to.deep.equal({ tracks_with_isrc: 2, with_recording_ref: 0, backlog: 2, errors: 0 });
    const res = await admin.post('/metabase/admin/link-isrcs?limit=10');
    const task = await pollTask(admin, res.body.task_id, undefined, 60_000);
    expect(task.summary).to.include({ processed: 2, failed: 1 });
    expect(await refsOf('track', ids.teen)).to.deep.equal(['5fb524f1-8cc8-4c04-a921-e34c0a911ea7']);
    expect(fake.requestsTo('/isrc/USGF19942501')[0]?.query).to.deep.equal({ fmt: 'json' });
    expect(await errorKeys('isrc_link')).to.deep.equal([`isrc_link:track:${ids.unknown}`]);
    expect((await admin.get('/metabase/admin/isrc-link-status')).body).to.deep.equal({ tracks_with_isrc: 2, with_recording_ref: 1, backlog: 1, errors: 1 });
  });

  it('shows configuration, cached counts, progress, recent runs and a live ping', async () => {
    const res = await admin.get('/metabase/admin/health');
    expect(res.status).to.equal(200);
    const health = res.body;
    expect(health.configuration).to.include({ contact_configured: true, user_agent: 'music-library-service/0.1.0 ( ops@example.org )', pacing: 'off', min_interval_ms: 1000 });
    expect(health.cache).to.include({ release: 1, barcode: 1 });
    expect(health.enrichment.isrc.with_recording_ref).to.equal(1);
    expect(health.enrichment.errors).to.include({ mb_barcode: 1, isrc_link: 1, hydrate_mb: 0 });
    expect(health.recent_runs.map((r: { name: string }) => r.name)).to.deep.equal(['metabase.link-isrcs', 'metabase.enrich-catalog-albums']);
    expect(health.ping.ok).to.equal(true);
    expect(health.ping.latency_ms).to.be.a('number');
    expect(fake.requestsTo('/area/8a754a16-0027-3a29-b6d7-2b40ea0481ed')).to.have.length(1);
  });
});
