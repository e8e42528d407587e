import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import type { ApiClient, TestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { albumSeen, artistSeen, trackSeen } from '../../support/observations.ts';
import { type CatalogFake, startCatalogFake } from '../../fakes/catalog/server.ts';
import { albumPayload, artistPayload, trackPayload } from '../../fakes/catalog/builders.ts';
import { pollUntil } from '../../support/scrobbler.ts';
import { signedInAdmin } from '../../support/given.ts';
import { type RadioLibrary, givenRadioLibrary } from './radio-library.ts';

/**
 * Discoveries: the similar tracks (the scrobbler fake's recorded track.getSimilar) that the
 * library lacks or cannot play, ranked, flagged once they arrive, summarized and dismissed; moods.
 */
describe('radio: discoveries and moods', function () {
  this.timeout(60_000);
  let library: RadioLibrary;
  let app: TestApp;
  let listener: ApiClient;
  let catalog: CatalogFake;

  before(async function () {
    this.timeout(180_000);
    catalog = await startCatalogFake({ fixtures: false });
    library = await givenRadioLibrary({ CATALOG_API_URL: catalog.url });
    app = library.app;
    listener = (await signedInAs(app, 'viewer')).client;
    for (let i = 0; i < 2; i++) await listener.post('/radio/sessions', { seed_kind: 'artist', seed_id: library.ids.dm });
  });
  after(async () => {
    await app?.close();
    await library?.scrobbler.close();
    await catalog?.close();
  });

  const titles = (rows: { title: string }[]) => rows.map((r) => r.title);

  it('given two sessions wanted the same similar tracks, then they rank by wanted count then similarity, with their status', async () => {
    const res = await listener.get('/radio/discoveries');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ total: 4, limit: 50, offset: 0 });
    expect(titles(res.body.items)).to.deep.equal(['Everything Counts', "Don't You Want Me", 'Tainted Love', 'Blue Monday']);
    expect(res.body.items[0]).to.include({ artist_name: 'Depeche Mode', status: 'not_in_library', wanted_count: 2, similarity: 0.892602, in_library: false, album_title: null, album_id: null });
    expect(res.body.items[1]).to.include({ status: 'not_playable', canonical_track_id: library.ids["Don't You Want Me"] });
    expect(titles((await listener.get('/radio/discoveries?limit=2&offset=1')).body.items)).to.deep.equal(["Don't You Want Me", 'Tainted Love']);
  });

  it("given another user, then they see none of the caller's discoveries and cannot dismiss them", async () => {
    const other = (await signedInAs(app, 'viewer')).client;
    expect((await other.get('/radio/discoveries')).body).to.include({ total: 0 });
    const id = (await listener.get('/radio/discoveries')).body.items[0].discovery_id;
    expect((await other.post(`/radio/discoveries/${id}/dismiss`)).status).to.equal(404);
  });

  it('given a wanted track arrives on the media server, then its row stays, flagged in_library, and the summary counts it', async () => {
    const softCell = artistSeen('mediaserver', 'mediaserver::srv::900', 'Soft Cell');
    const album = albumSeen('mediaserver', 'mediaserver::srv::901', 'Non-Stop Erotic Cabaret', softCell);
    await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::902', 'Tainted Love', softCell, album, { disc: 1, track_number: 1 }));
    const row = (await listener.get('/radio/discoveries')).body.items.find((r: { title: string }) => r.title === 'Tainted Love');
    expect(row).to.include({ in_library: true, status: 'not_in_library' });
    const summary = (await listener.get('/radio/discoveries/summary')).body;
    expect(summary).to.deep.include({ total: 4, by_status: { not_playable: 1, not_in_library: 3 }, in_library: 1 });
    expect(summary.top_artists.map((a: { artist_name: string }) => a.artist_name)).to.deep.equal(['Depeche Mode', 'New Order', 'Soft Cell', 'The Human League']);
    expect(summary.top_artists[0]).to.deep.equal({ artist_name: 'Depeche Mode', wanted_count: 2, tracks: 1 });
  });

  it('when a discovery is dismissed (twice), then it leaves the list and the summary', async () => {
    const id = (await listener.get('/radio/discoveries')).body.items.find((r: { title: string }) => r.title === 'Blue Monday').discovery_id;
    for (let i = 0; i < 2; i++) expect((await listener.post(`/radio/discoveries/${id}/dismiss`)).body).to.deep.equal({ discovery_id: id, dismissed: true });
    expect(titles((await listener.get('/radio/discoveries')).body.items)).to.not.include('Blue Monday');
    expect((await listener.get('/radio/discoveries/summary')).body.by_status).to.deep.equal({ not_playable: 1, not_in_library: 2 });
    expect((await listener.post('/radio/discoveries/unknown/dismiss')).status).to.equal(404);
  });

  it('GET /radio/moods lists the moods of the playable library by count then name; limit 0 is all', async () => {
    const res = await listener.get('/radio/moods');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal([{ mood: 'rare mood', count: 3 }]);
    expect((await listener.get('/radio/moods?limit=-1')).status).to.equal(422);
  });

  describe('admin: discovery albums', () => {
    it('given discoveries without albums, when the backfill runs, then the scrobbler, then the catalog fill album_title and album_id, and the coverage counts them', async () => {
      const admin = await signedInAdmin(app);
      expect((await listener.get('/admin/radio/discovery-albums/coverage')).status).to.equal(403);
      expect((await admin.get('/admin/radio/discovery-albums/coverage')).body).to.deep.equal({ total: 4, with_album: 0, without_album: 4, with_album_id: 0, by_source: { scrobbler: 0, catalog: 0 } });
      library.scrobbler.state.addTrack({ artist: 'Depeche Mode', name: 'Everything Counts', album: 'Construction Time Again' });
      library.scrobbler.state.addTrack({ artist: 'The Human League', name: "Don't You Want Me", album: 'Dare' });
      const newOrder = artistPayload(7000, 'New Order');
      const pcl = albumPayload(7001, 'Power, Corruption & Lies', newOrder);
      catalog.addAlbum(pcl, [trackPayload(7002, 'Blue Monday', newOrder, pcl)]);

      const started = await admin.post('/admin/radio/discovery-albums/backfill?limit=10');
      expect(started.status).to.equal(200);
      const done = await pollUntil(() => admin.get(`/admin/task-history/${started.body.task_id}`), (r) => r.status === 200 && r.body.status !== 'running');
      expect(done.body.status).to.equal('completed');
      expect(done.body.summary).to.include({ scanned: 4, filled: 3, not_found: 1, failed: 0 });

      const rows = (await listener.get('/radio/discoveries?limit=10')).body.items as { title: string; album_title: string | null; album_id: string | null }[];
      const album = (title: string) => rows.find((r) => r.title === title) ?? { album_title: 'dismissed', album_id: null };
      expect(album('Everything Counts')).to.include({ album_title: 'Construction Time Again', album_id: null });
      expect(album("Don't You Want Me")).to.include({ album_title: 'Dare', album_id: library.ids.dare });
      expect(album('Tainted Love')).to.include({ album_title: null, album_id: null });
      expect((await admin.get('/admin/radio/discovery-albums/coverage')).body).to.deep.equal({ total: 4, with_album: 3, without_album: 1, with_album_id: 2, by_source: { scrobbler: 2, catalog: 1 } });
    });
  });
});
