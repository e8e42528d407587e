import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { albumPayload, artistPayload, trackPayload } from '../../fakes/catalog/builders.ts';
import { type CatalogFake, startCatalogFake } from '../../fakes/catalog/server.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin } from '../../support/given.ts';
import { albumSeen, artistSeen, trackSeen } from '../../support/observations.ts';
import { pollTask } from '../tasks/test-tasks.ts';

describe('link-album-tracks: by (disc, track) when counts match and titles align; title fallback apart', () => {
  let catalog: CatalogFake;
  let app: TestApp;
  let admin: ApiClient;
  const tracks: Record<string, string> = {};

  const artist = artistPayload(901, 'Air');
  const moonSafari = albumPayload(9001, 'Moon Safari', artist);
  const talkie = albumPayload(9002, 'Talkie Walkie', artist);

  before(async () => {
    catalog = await startCatalogFake({ fixtures: false });
    catalog.addArtist(artist);
    catalog.addAlbum(moonSafari, [trackPayload(90011, 'La Femme d’Argent', artist, moonSafari, [1, 1]), trackPayload(90012, 'Sexy Boy', artist, moonSafari, [1, 2]), trackPayload(90013, 'All I Need', artist, moonSafari, [1, 3])]);
    // Three tracks there, two here: skipped, unless titles unique on both sides may pair.
    catalog.addAlbum(talkie, [trackPayload(90021, 'Venus', artist, talkie, [1, 1]), trackPayload(90022, 'Cherry Blossom Girl', artist, talkie, [1, 2]), trackPayload(90023, 'Run', artist, talkie, [1, 3])]);
    app = await startTestApp({ CATALOG_API_URL: catalog.url });
    admin = await signedInAdmin(app);
    const air = artistSeen('catalog', '901', 'Air');
    const ms = albumSeen('catalog', '9001', 'Moon Safari', air);
    const tw = albumSeen('catalog', '9002', 'Talkie Walkie', air);
    const mine = artistSeen('mediaserver', 'mediaserver::srv::a1', 'Air');
    const seen = (key: string, title: string, album: typeof ms, disc: number, track: number) =>
      reconcile(app.ctx, trackSeen('mediaserver', `mediaserver::srv::${key}`, title, mine, { ...album, source: 'mediaserver', external_id: `mediaserver::srv::${album.external_id}`, artist: mine }, { disc, track_number: track }));
    await reconcile(app.ctx, ms);
    await reconcile(app.ctx, tw);
    tracks.femme = await seen('t1', 'La femme d’argent', ms, 1, 1);
    tracks.sexy = await seen('t2', 'Sexy Boy (Remastered)', ms, 1, 2);
    tracks.need = await seen('t3', 'All I Need', ms, 1, 3);
    tracks.venus = await seen('t4', 'Venus', tw, 1, 1);
    tracks.run = await seen('t5', 'Run', tw, 1, 2);
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
  const catalogRef = async (id: string) => ((await admin.get(`/tracks/${id}`)).body.refs as { source: string; external_id: string }[]).find((r) => r.source === 'catalog')?.external_id ?? null;
  const coverage = async () => (await admin.get('/admin/canonical/enrich/album-track-coverage')).body;

  it('links an aligned album’s tracks by position and skips the album whose counts differ', async () => {
    expect(await coverage()).to.deep.equal({ source: 'catalog', eligible: 2, done: 0, backlog: 2, tracks: 5, tracks_linked: 0, errors: 0 });
    const task = await run('link-album-tracks');
    expect(task.summary).to.include({ processed: 2, failed: 0, position_matched: 3, title_matched: 0, albums_skipped: 1 });
    expect([await catalogRef(tracks.femme!), await catalogRef(tracks.sexy!), await catalogRef(tracks.need!)]).to.deep.equal(['90011', '90012', '90013']);
    expect(await catalogRef(tracks.venus!)).to.equal(null);
    expect(await coverage()).to.include({ done: 1, backlog: 1, tracks_linked: 3 });
  });

  it('with title_fallback, links the skipped album’s tracks whose title is unique on both sides, counted apart', async () => {
    const task = await run('link-album-tracks?title_fallback=true');
    expect(task.summary).to.include({ processed: 1, title_matched: 2, position_matched: 0 });
    expect([await catalogRef(tracks.venus!), await catalogRef(tracks.run!)]).to.deep.equal(['90021', '90023']);
    expect(await coverage()).to.include({ done: 2, backlog: 0, tracks_linked: 5 });
  });
});
