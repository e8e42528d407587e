import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { STORE_PACING, createStoreClient } from '../../../infra/upstreams/store/client.ts';
import { createPacer } from '../../../infra/upstreams/pacer.ts';
import { type StoreFake, recordedLookup, startStoreFake } from '../../fakes/store/server.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin } from '../../support/given.ts';
import { albumSeen, artistSeen, trackSeen } from '../../support/observations.ts';
import { pollTask } from '../tasks/test-tasks.ts';

const EP = 'Nightmare·Escape The ERA - EP';

describe('discover-store: albums by UPC, tracks by ISRC, paced, never by name', () => {
  let store: StoreFake;
  let app: TestApp;
  let admin: ApiClient;
  const ids = {} as Record<'ep' | 'sameName' | 'intro', string>;

  before(async () => {
    store = await startStoreFake();
    const { results } = recordedLookup();
    store.byUpc.set('8809516263847', results);
    store.byIsrc.set('KRA381801137', [results[1]!]);
    app = await startTestApp(store.env);
    admin = await signedInAdmin(app);
    const dc = artistSeen('mediaserver', 'mediaserver::srv::a1', 'Dreamcatcher');
    const ep = albumSeen('mediaserver', 'mediaserver::srv::b1', EP, dc, { upc: '8809516263847' });
    const other = artistSeen('mediaserver', 'mediaserver::srv::a2', 'Dreamcatcher Covers');
    ids.ep = await reconcile(app.ctx, ep);
    ids.sameName = await reconcile(app.ctx, albumSeen('mediaserver', 'mediaserver::srv::b2', EP, other, { upc: '0000000000017' }));
    ids.intro = await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::t1', 'INSIDE-OUTSIDE (Intro)', dc, ep, { isrc: 'KRA381801137' }));
  });
  after(async () => {
    await app.close();
    await store.close();
  });

  async function run(path: string) {
    const res = await admin.post(`/admin/canonical/enrich/${path}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return pollTask(admin, res.body.task_id, undefined, 30_000);
  }
  const storeRefs = async (kind: string, id: string) => ((await admin.get(`/${kind}s/${id}`)).body.refs as { source: string; external_id: string }[]).filter((r) => r.source === 'store');

  it('links the album the store knows by its UPC, never the same-named album with another UPC, and files the miss', async () => {
    expect((await admin.get('/admin/canonical/enrich/store-coverage')).body.albums).to.deep.equal({ total: 2, with_store_ref: 0, eligible: 2, backlog: 2 });
    expect((await run('discover-store')).summary).to.include({ processed: 2, failed: 1 });
    expect(store.requestsTo('/lookup').map((r) => r.query).sort((a, b) => String(a.upc).localeCompare(String(b.upc)))).to.deep.equal([{ upc: '0000000000017', entity: 'song' }, { upc: '8809516263847', entity: 'song' }]);
    expect(await storeRefs('album', ids.ep)).to.deep.equal([{ source: 'store', external_id: '1728639278' }]);
    expect(await storeRefs('album', ids.sameName)).to.deep.equal([]);
    const rows = (await admin.get('/admin/canonical/enrich/errors?source=store_discover')).body.items;
    expect(rows.map((r: { canonical_id: string }) => r.canonical_id)).to.deep.equal([ids.sameName]);
    expect((await admin.get('/admin/canonical/enrich/store-coverage')).body).to.deep.include({ albums: { total: 2, with_store_ref: 1, eligible: 2, backlog: 1 }, errors: 1 });
  });

  it('links a track by its ISRC and takes the store’s preview', async () => {
    expect((await run('discover-store?kind=track')).summary).to.include({ processed: 1, failed: 0 });
    expect(await storeRefs('track', ids.intro)).to.deep.equal([{ source: 'store', external_id: '1728639279' }]);
    expect((await admin.get(`/tracks/${ids.intro}`)).body.preview_url).to.match(/^https:\/\/audio-ssl\.itunes\.apple\.com\//);
  });

  it('spaces look-ups 3 s apart for every caller of the client (measured on a virtual clock, no real wait)', async () => {
    let clock = 0;
    const starts: number[] = [];
    const paced = createPacer({ enabled: true, ...STORE_PACING, now: () => clock, sleep: async (ms) => void (clock += ms) });
    const client = createStoreClient({ baseUrl: store.url, pacer: { schedule: (fn) => paced.schedule(() => (starts.push(clock), fn())) } });
    await Promise.all([client.albumByUpc('8809516263847'), client.trackByIsrc('KRA381801137'), client.albumByUpc('1')]);
    expect(starts.slice(1).map((t, i) => t - starts[i]!)).to.deep.equal([3000, 3000]);
  });
});
