import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { type ReleasedbFake, recordedRows, startReleasedbFake } from '../../fakes/releasedb/server.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin } from '../../support/given.ts';
import { albumSeen, artistSeen } from '../../support/observations.ts';
import { pollTask } from '../tasks/test-tasks.ts';

describe('releasedb: exact barcode discovery, then styles, genres and labels from the cache', () => {
  let fake: ReleasedbFake;
  let app: TestApp;
  let admin: ApiClient;
  const ids = {} as Record<'wishkah' | 'nearly' | 'unknown', string>;

  before(async () => {
    fake = await startReleasedbFake();
    const [wishkah] = recordedRows();
    // The fuzzy search answers the longer barcode first for the Wishkah's UPC: only the exact one may be linked.
    fake.rows.push({ ...wishkah!, id: 222, type: 'release', barcode: ['0 720642 510520 9'], style: ['Noise'], label: ['Other'] }, { ...wishkah!, id: 111, type: 'release' });
    app = await startTestApp(fake.env);
    admin = await signedInAdmin(app);
    const nirvana = artistSeen('mediaserver', 'mediaserver::srv::a1', 'Nirvana');
    ids.nearly = await reconcile(app.ctx, albumSeen('mediaserver', 'mediaserver::srv::b0', 'From The Muddy Banks Of The Wishkah (Bootleg)', nirvana, { upc: '07206425105209' }));
    ids.wishkah = await reconcile(app.ctx, albumSeen('mediaserver', 'mediaserver::srv::b1', 'From The Muddy Banks Of The Wishkah', nirvana, { upc: '720642510520', genres: ['Alternative'] }));
    ids.unknown = await reconcile(app.ctx, albumSeen('mediaserver', 'mediaserver::srv::b2', 'Unreleased', nirvana, { upc: '5099999999999' }));
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
  const album = async (id: string) => (await admin.get(`/albums/${id}`)).body;
  const coverage = async () => (await admin.get('/admin/canonical/enrich/releasedb-coverage')).body;

  it('links only the release whose printed barcode is exactly the UPC, sending the token as a header', async () => {
    expect(await coverage()).to.deep.equal({ total: 3, with_releasedb_ref: 0, eligible: 3, backlog: 3, cached: 0, reproject_backlog: 0, errors: 0 });
    expect((await run('releasedb-discover')).summary).to.include({ processed: 3, failed: 1 });
    const refs = async (id: string) => ((await album(id)).refs as { source: string; external_id: string }[]).filter((r) => r.source === 'releasedb');
    expect(await refs(ids.wishkah)).to.deep.equal([{ source: 'releasedb', external_id: '111' }]);
    expect(await refs(ids.nearly)).to.deep.equal([{ source: 'releasedb', external_id: '222' }]);
    expect(await refs(ids.unknown)).to.deep.equal([]);
    expect(fake.requests.every((r) => r.query.type === 'release' && !JSON.stringify(r.query).includes('token'))).to.equal(true);
    expect(await coverage()).to.deep.equal({ total: 3, with_releasedb_ref: 2, eligible: 3, backlog: 1, cached: 2, reproject_backlog: 2, errors: 1 });
  });

  it('puts the cached styles, genres and labels onto the albums without a request, and a rebuild keeps them', async () => {
    const before = fake.requests.length;
    expect((await run('releasedb-reproject')).summary).to.include({ processed: 2, failed: 0 });
    expect(fake.requests.length).to.equal(before);
    const wishkah = await album(ids.wishkah);
    expect(wishkah).to.deep.include({ styles: ['grunge'], labels: ['DGC', 'Geffen Records, Inc.', 'Uni Distribution Corp.', 'DADC', 'The Reading Festival'] });
    expect(wishkah.genres).to.deep.equal(['alternative', 'rock']);
    expect((await coverage()).reproject_backlog).to.equal(0);
    const res = await admin.post('/admin/canonical/rebuild');
    expect((await pollTask(admin, res.body.task_id, undefined, 30_000)).status).to.equal('completed');
    expect(await album(ids.wishkah)).to.deep.include({ styles: ['grunge'], genres: ['alternative', 'rock'] });
  });

  it('refuses to start discovery without RELEASEDB_TOKEN', async () => {
    const bare = await startTestApp({ RELEASEDB_API_URL: fake.url });
    try {
      const res = await (await signedInAdmin(bare)).post('/admin/canonical/enrich/releasedb-discover');
      expect(res.status).to.equal(503);
    } finally {
      await bare.close();
    }
  });
});
