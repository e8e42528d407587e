import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { type CatalogFake, type Json, startCatalogFake } from '../../fakes/catalog/server.ts';
import { fixtureJson } from '../../fakes/harness.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin } from '../../support/given.ts';
import { albumSeen, artistSeen, trackSeen } from '../../support/observations.ts';
import { pollTask } from '../tasks/test-tasks.ts';

describe('discover-catalog: exact ISRC and UPC, artists through a linked sibling, never by name', () => {
  let catalog: CatalogFake;
  let app: TestApp;
  let admin: ApiClient;
  const ids = {} as Record<'daftPunk' | 'discovery' | 'harder' | 'tribute' | 'otherDiscovery' | 'otherHarder' | 'copy', string>;

  before(async () => {
    catalog = await startCatalogFake();
    app = await startTestApp({ CATALOG_API_URL: catalog.url });
    admin = await signedInAdmin(app);
    const daftPunk = artistSeen('mediaserver', 'mediaserver::srv::a1', 'Daft Punk');
    const discovery = albumSeen('mediaserver', 'mediaserver::srv::b1', 'Discovery', daftPunk, { upc: '724384960650' });
    const tribute = artistSeen('mediaserver', 'mediaserver::srv::a2', 'Daft Punk Tribute');
    const otherDiscovery = albumSeen('mediaserver', 'mediaserver::srv::b2', 'Discovery', tribute, { upc: '5099749876543' });
    ids.daftPunk = await reconcile(app.ctx, daftPunk);
    ids.discovery = await reconcile(app.ctx, discovery);
    ids.tribute = await reconcile(app.ctx, tribute);
    ids.otherDiscovery = await reconcile(app.ctx, otherDiscovery);
    ids.harder = await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::t1', 'Harder Better Faster Stronger', daftPunk, discovery, { isrc: 'GBDUW0000059' }));
    ids.otherHarder = await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::t2', 'Harder Better Faster Stronger', tribute, otherDiscovery, { isrc: 'GBDUW0000099' }));
  });
  after(async () => {
    await app.close();
    await catalog.close();
  });

  async function run(path: string) {
    const res = await admin.post(`/admin/canonical/enrich/${path}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return pollTask(admin, res.body.task_id, undefined, 30_000);
  }
  const refs = async (kind: string, id: string) => ((await admin.get(`/${kind}s/${id}`)).body.refs as { source: string; external_id: string }[]).filter((r) => r.source === 'catalog');
  const coverage = async () => (await admin.get('/admin/canonical/enrich/catalog-coverage')).body;

  it('links the track whose ISRC the catalog knows, and never the same-named track with another ISRC', async () => {
    expect((await coverage()).tracks).to.deep.equal({ total: 2, with_catalog_ref: 0, eligible: 2, backlog: 2 });
    const task = await run('discover-catalog');
    expect(task.summary).to.include({ processed: 2, failed: 1 });
    expect(catalog.requestsTo('/track/isrc:').map((r) => r.path).sort()).to.deep.equal(['/track/isrc:GBDUW0000059', '/track/isrc:GBDUW0000099']);
    expect(await refs('track', ids.harder)).to.deep.equal([{ source: 'catalog', external_id: '3135556' }]);
    expect(await refs('track', ids.otherHarder)).to.deep.equal([]);
    expect((await admin.get(`/tracks/${ids.harder}`)).body.catalog_id).to.equal('3135556');
    const rows = (await admin.get('/admin/canonical/enrich/errors?source=catalog_discover')).body.items;
    expect(rows.map((r: { canonical_id: string }) => r.canonical_id)).to.deep.equal([ids.otherHarder]);
    expect(await coverage()).to.deep.include({ tracks: { total: 2, with_catalog_ref: 1, eligible: 2, backlog: 1 }, errors: 1 });
  });

  it('links the album by its UPC only, then its artist through it', async () => {
    expect((await run('discover-catalog?kind=album')).summary).to.include({ processed: 2, failed: 1 });
    expect(await refs('album', ids.discovery)).to.deep.equal([{ source: 'catalog', external_id: '302127' }]);
    expect(await refs('album', ids.otherDiscovery)).to.deep.equal([]);
    expect((await coverage()).artists).to.deep.equal({ total: 2, with_catalog_ref: 0, eligible: 1, backlog: 1 });
    expect((await run('discover-catalog?kind=artist')).summary).to.include({ processed: 1, failed: 0 });
    expect(await refs('artist', ids.daftPunk)).to.deep.equal([{ source: 'catalog', external_id: '27' }]);
    expect(await refs('artist', ids.tribute)).to.deep.equal([]);
  });

  it('files a conflict instead of moving a catalog id another track owns', async () => {
    // The catalog now files its track 3135556 under another ISRC, which a second canonical track carries.
    catalog.addTrack({ ...fixtureJson<Json>('deezer', 'track.3135556.json'), isrc: 'GBDUW0000077' });
    const tribute = artistSeen('mediaserver', 'mediaserver::srv::a2', 'Daft Punk Tribute');
    const otherDiscovery = albumSeen('mediaserver', 'mediaserver::srv::b2', 'Discovery', tribute);
    ids.copy = await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::t9', 'HBFS (copy)', tribute, otherDiscovery, { isrc: 'GBDUW0000077' }));
    await run('discover-catalog?limit=5');
    expect(await refs('track', ids.copy)).to.deep.equal([]);
    expect(await refs('track', ids.harder)).to.deep.equal([{ source: 'catalog', external_id: '3135556' }]);
    const row = (await admin.get('/admin/canonical/enrich/errors?source=catalog_discover&kind=track')).body.items.find((r: { canonical_id: string }) => r.canonical_id === ids.copy);
    expect(row.error).to.contain(ids.harder);
  });
});
