import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { albumSeen, artistSeen, trackSeen } from '../../support/observations.ts';

type Group = { name_folded: string; artist_id: string | null; count: number; candidates: { id: string; refs: unknown[] }[] };

describe('canonical maintenance: duplicates and stats', () => {
  let app: TestApp;
  let admin: ApiClient;
  let queenId: string;

  before(async () => {
    app = await startTestApp();
    admin = await signedInAdmin(app);
    // Same names, different metabase ids: the conflict guard keeps them apart, so they are duplicate candidates.
    for (const n of [1, 2, 3]) await reconcile(app.ctx, artistSeen('metabase', `mb-nirvana-${n}`, 'Nirvana', { mbid: `mb-nirvana-${n}` }));
    for (const n of [1, 2]) await reconcile(app.ctx, artistSeen('metabase', `mb-genesis-${n}`, 'Genesis', { mbid: `mb-genesis-${n}` }));
    await reconcile(app.ctx, artistSeen('mediaserver', 'mediaserver::srv::1', 'Solo Act'));
    const yes = [];
    for (const n of [1, 2]) yes.push(await reconcile(app.ctx, artistSeen('metabase', `mb-yes-${n}`, 'Yes', { mbid: `mb-yes-${n}` })));
    expect((await admin.post(`/admin/canonical/artists/${yes[0]}/merge`, { source_id: yes[1] })).status).to.equal(200);

    const queen = artistSeen('mediaserver', 'mediaserver::srv::2', 'Queen');
    const hits1 = albumSeen('mediaserver', 'mediaserver::srv::3', 'Greatest Hits', queen, { upc: '111' });
    const hits2 = albumSeen('mediaserver', 'mediaserver::srv::4', 'Greatest Hits', queen, { upc: '222' });
    await reconcile(app.ctx, hits1);
    await reconcile(app.ctx, hits2);
    await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::5', 'Bohemian Rhapsody', queen, hits1, { isrc: 'GB0001' }));
    await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::6', 'Bohemian Rhapsody', queen, hits2, { isrc: 'GB0002' }));
    queenId = (await admin.get('/artists/resolve?mediaserver_server=srv&mediaserver_rating_key=2')).body.id;
  });
  after(() => app.close());

  const duplicates = async (query: string) => {
    const res = await admin.get(`/admin/canonical/duplicates?${query}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { kind: string; page: number; limit: number; has_more: boolean; groups: Group[] };
  };

  describe('GET /admin/canonical/duplicates', () => {
    it('groups live artists by folded name, most candidates first, leaving out singles and merged-away ones', async () => {
      const page = await duplicates('kind=artists');
      expect(page).to.include({ kind: 'artists', page: 1, limit: 25, has_more: false });
      expect(page.groups.map((g) => [g.name_folded, g.count, g.candidates.length])).to.deep.equal([['nirvana', 3, 3], ['genesis', 2, 2]]);
      expect(page.groups[0]!.candidates[0]!.refs).to.have.length(1);
    });

    it('pages groups with has_more', async () => {
      const first = await duplicates('kind=artists&limit=1');
      expect(first).to.include({ page: 1, limit: 1, has_more: true });
      expect(first.groups.map((g) => g.name_folded)).to.deep.equal(['nirvana']);
      const second = await duplicates('kind=artists&limit=1&page=2');
      expect(second.has_more).to.equal(false);
      expect(second.groups.map((g) => g.name_folded)).to.deep.equal(['genesis']);
      expect((await duplicates('kind=artists&limit=1&page=3')).groups).to.deep.equal([]);
    });

    it('filters candidates by q before grouping', async () => {
      expect((await duplicates('kind=artists&q=GENES')).groups.map((g) => g.name_folded)).to.deep.equal(['genesis']);
      expect((await duplicates('kind=artists&q=solo')).groups).to.deep.equal([]);
    });

    it('groups albums and tracks under their artist, and q also matches the artist name', async () => {
      const albums = await duplicates('kind=albums');
      expect(albums.groups.map((g) => [g.name_folded, g.artist_id, g.count])).to.deep.equal([['greatest hits', queenId, 2]]);
      expect((await duplicates('kind=albums&q=queen')).groups).to.have.length(1);
      expect((await duplicates('kind=albums&q=nothing-like-it')).groups).to.deep.equal([]);
      const tracks = await duplicates('kind=tracks');
      expect(tracks.groups.map((g) => [g.name_folded, g.artist_id, g.count])).to.deep.equal([['bohemian rhapsody', queenId, 2]]);
    });

    it('requires a kind among artists, albums and tracks, and is for admins', async () => {
      expect((await admin.get('/admin/canonical/duplicates')).status).to.equal(422);
      expect((await admin.get('/admin/canonical/duplicates?kind=songs')).status).to.equal(422);
      const viewer = (await signedInAs(app, 'viewer')).client;
      expect((await viewer.get('/admin/canonical/duplicates?kind=artists')).status).to.equal(403);
    });
  });

  describe('GET /admin/canonical/stats', () => {
    it('counts entities per kind (live, merged, playable), refs in total, per source and per kind', async () => {
      const res = await admin.get('/admin/canonical/stats');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ artists: 8, albums: 2, tracks: 2 });
      expect(res.body.by_kind.artists).to.deep.equal({ total: 9, live: 8, merged: 1, playable: 2, multi_source: 0 });
      expect(res.body.by_kind.albums).to.deep.equal({ total: 2, live: 2, merged: 0, playable: 2, multi_source: 0 });
      expect(res.body.by_kind.tracks).to.deep.equal({ total: 2, live: 2, merged: 0, playable: 2, multi_source: 0 });
      expect(res.body.total_refs).to.equal(13);
      expect(res.body.refs_per_source).to.include({ metabase: 7, mediaserver: 6, scrobbler: 0, catalog: 0 });
      expect(res.body.refs_per_kind).to.deep.equal({ artists: 9, albums: 2, tracks: 2 });
      const viewer = (await signedInAs(app, 'viewer')).client;
      expect((await viewer.get('/admin/canonical/stats')).status).to.equal(403);
    });
  });
});
