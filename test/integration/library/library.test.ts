import { expect } from 'chai';
import { reconcile, reconcileMany } from '../../../command/canonical/reconciler.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { albumSeen, artistSeen, trackSeen } from '../../support/observations.ts';

type Row = { id: string; title?: string; name?: string; source_count: number; playable: boolean; created_at: string; tombstoned: boolean };

describe('the library browser', () => {
  let app: TestApp;
  let viewer: ApiClient;
  let mergedAway: string;
  let albumIds: Record<string, string>;

  before(async () => {
    app = await startTestApp();
    const admin = await signedInAdmin(app);
    viewer = (await signedInAs(app, 'viewer')).client;
    const aphex = artistSeen('mediaserver', 'mediaserver::srv::1', 'Aphex Twin');
    const boc = artistSeen('scrobbler', 'boards of canada', 'Boards of Canada');
    const autechre = artistSeen('mediaserver', 'mediaserver::srv::3', 'Autechre');
    const saw = albumSeen('mediaserver', 'mediaserver::srv::10', 'Selected Ambient Works 85-92', aphex, { genres: ['Electronic', 'Ambient'] });
    const drukqs = albumSeen('mediaserver', 'mediaserver::srv::11', 'Drukqs', aphex, { genres: ['Electronic'] });
    const syro = albumSeen('catalog', '500', 'Syro', artistSeen('catalog', '50', 'Aphex Twin'), { genres: ['Electronic', 'IDM'] });
    const mhtrtc = albumSeen('scrobbler', 'boards of canada::Music Has the Right to Children', 'Music Has the Right to Children', boc, { genres: ['Electronic', 'IDM'] });
    const amber = albumSeen('mediaserver', 'mediaserver::srv::12', 'Amber', autechre, { genres: ['Ambient'] });
    const triA = albumSeen('mediaserver', 'mediaserver::srv::13', 'Tri Repetae', autechre, { genres: ['Techno'], mbid: 'rg-tri-a' });
    const triB = albumSeen('catalog', '501', 'Tri Repetae', artistSeen('catalog', '51', 'Autechre'), { genres: ['Techno'], mbid: 'rg-tri-b' });
    albumIds = {};
    for (const [key, obs] of Object.entries({ saw, drukqs, syro, mhtrtc, amber, triA, triB })) albumIds[key] = await reconcile(app.ctx, obs);
    await reconcile(app.ctx, albumSeen('scrobbler', 'aphex twin::Drukqs', 'Drukqs', artistSeen('scrobbler', 'aphex twin', 'Aphex Twin')));
    await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::20', 'Avril 14th', aphex, drukqs, { disc: 1, track_number: 1 }));
    await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::21', 'Xtal', aphex, saw, { disc: 1, track_number: 1 }));
    await reconcile(app.ctx, trackSeen('catalog', '900', 'minipops 67', artistSeen('catalog', '50', 'Aphex Twin'), syro));
    const merged = await admin.post(`/admin/canonical/albums/${albumIds.triA}/merge`, { source_id: albumIds.triB });
    expect(merged.status).to.equal(200);
    mergedAway = albumIds.triB!;
  });
  after(() => app.close());

  const list = async (path: string): Promise<{ items: Row[]; total: number; page: number; page_size: number; has_more: boolean }> => {
    const res = await viewer.get(path);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };
  const titles = (rows: Row[]) => rows.map((r) => r.title ?? r.name);

  describe('GET /library/albums', () => {
    it('when asked with no parameters, then it answers live albums newest first, 50 a page, merged-away ones left out', async () => {
      const page = await list('/library/albums');
      expect(page).to.include({ total: 6, page: 1, page_size: 50, has_more: false });
      expect(page.items.map((r) => r.id)).to.not.include(mergedAway);
      expect(page.items.every((r) => !r.tombstoned)).to.equal(true);
      const created = page.items.map((r) => r.created_at);
      expect(created).to.deep.equal([...created].sort().reverse());
      expect(page.items[0]).to.not.have.property('refs');
    });

    it('when paged two at a time, then the pages cover the list once each and has_more ends on the last', async () => {
      const all = (await list('/library/albums?sort=name')).items.map((r) => r.id);
      const pages = [];
      for (let page = 1; page <= 3; page++) pages.push(await list(`/library/albums?sort=name&page=${page}&page_size=2`));
      expect(pages.map((p) => p.has_more)).to.deep.equal([true, true, false]);
      expect(pages.flatMap((p) => p.items.map((r) => r.id))).to.deep.equal(all);
      const beyond = await list('/library/albums?sort=name&page=4&page_size=2');
      expect(beyond).to.include({ total: 6, has_more: false });
      expect(beyond.items).to.deep.equal([]);
    });

    it('when sorted by name or by source count, then the order follows the folded name or the sources', async () => {
      expect(titles((await list('/library/albums?sort=name')).items)).to.deep.equal([
        'Amber', 'Drukqs', 'Music Has the Right to Children', 'Selected Ambient Works 85-92', 'Syro', 'Tri Repetae',
      ]);
      const bySources = (await list('/library/albums?sort=source_count')).items;
      expect(bySources.map((r) => r.source_count)).to.deep.equal([2, 2, 1, 1, 1, 1]);
      expect(titles(bySources.slice(0, 2))).to.deep.equal(['Drukqs', 'Tri Repetae']);
    });

    it('when filtered, then playable keeps what the mediaserver holds and the other filters split the rest', async () => {
      expect(titles((await list('/library/albums?filter=playable&sort=name')).items)).to.deep.equal(['Amber', 'Drukqs', 'Selected Ambient Works 85-92', 'Tri Repetae']);
      expect(titles((await list('/library/albums?filter=not_playable&sort=name')).items)).to.deep.equal(['Music Has the Right to Children', 'Syro']);
      expect(titles((await list('/library/albums?filter=multi_source&sort=name')).items)).to.deep.equal(['Drukqs', 'Tri Repetae']);
      expect((await list('/library/albums?filter=single_source')).total).to.equal(4);
      expect((await list('/library/albums?filter=all')).total).to.equal(6);
      expect((await list('/library/albums?filter=playable')).items.every((r) => r.playable)).to.equal(true);
    });

    it('when narrowed by genre, then only albums carrying it answer, whatever its case', async () => {
      expect(titles((await list('/library/albums?genre=Ambient&sort=name')).items)).to.deep.equal(['Amber', 'Selected Ambient Works 85-92']);
      expect(titles((await list('/library/albums?genre=idm&filter=not_playable&sort=name')).items)).to.deep.equal(['Music Has the Right to Children', 'Syro']);
      expect((await list('/library/albums?genre=polka')).total).to.equal(0);
    });

    it('when a parameter is not one of its values, then 422 names it', async () => {
      for (const [query, field] of [['sort=loudest', 'sort'], ['filter=everything', 'filter'], ['page=0', 'page'], ['page_size=0', 'page_size']]) {
        const res = await viewer.get(`/library/albums?${query}`);
        expect(res.status).to.equal(422);
        expect(res.body.detail[0].loc).to.deep.equal(['query', field]);
      }
    });
  });

  describe('GET /library/artists and /library/tracks', () => {
    it('artists list once per canonical artist, filter by playability and by the genres of their albums', async () => {
      expect(titles((await list('/library/artists?sort=name')).items)).to.deep.equal(['Aphex Twin', 'Autechre', 'Boards of Canada']);
      expect(titles((await list('/library/artists?filter=playable&sort=name')).items)).to.deep.equal(['Aphex Twin', 'Autechre']);
      expect(titles((await list('/library/artists?genre=ambient&sort=name')).items)).to.deep.equal(['Aphex Twin', 'Autechre']);
      expect(titles((await list('/library/artists?genre=techno')).items)).to.deep.equal(['Autechre']);
      expect((await list('/library/artists?sort=source_count')).items[0]).to.include({ name: 'Aphex Twin', source_count: 3 });
    });

    it('tracks filter by playability and by their album genre', async () => {
      expect(titles((await list('/library/tracks?sort=name')).items)).to.deep.equal(['Avril 14th', 'minipops 67', 'Xtal']);
      expect(titles((await list('/library/tracks?filter=playable&sort=name')).items)).to.deep.equal(['Avril 14th', 'Xtal']);
      expect(titles((await list('/library/tracks?genre=idm')).items)).to.deep.equal(['minipops 67']);
      const paged = await list('/library/tracks?sort=name&page=2&page_size=2');
      expect(paged).to.include({ total: 3, page: 2, page_size: 2, has_more: false });
      expect(titles(paged.items)).to.deep.equal(['Xtal']);
    });
  });

  describe('a list row', () => {
    it('is the detail doc without its refs, key for key and in the same order, for every kind', async () => {
      for (const [kind, detail] of [['artists', 'artists'], ['albums', 'albums'], ['tracks', 'tracks']] as const) {
        const { items } = await list(`/library/${kind}?page_size=500`);
        expect(items.length, kind).to.be.greaterThan(0);
        for (const item of items) {
          const { refs: _, ...doc } = (await viewer.get(`/${detail}/${item.id}`)).body;
          expect(Object.keys(item), `${kind} ${item.id}`).to.deep.equal(Object.keys(doc));
          expect(item, `${kind} ${item.id}`).to.deep.equal(doc);
        }
      }
    });
  });

  describe('GET /library/genres', () => {
    it('counts live albums per genre, most common first (ties by name); limit 0 means all', async () => {
      const all = await viewer.get('/library/genres');
      expect(all.status).to.equal(200);
      expect(all.body).to.deep.equal([
        { genre: 'electronic', count: 4 },
        { genre: 'ambient', count: 2 },
        { genre: 'idm', count: 2 },
        { genre: 'techno', count: 1 },
      ]);
      expect((await viewer.get('/library/genres?limit=0')).body).to.deep.equal(all.body);
      expect((await viewer.get('/library/genres?limit=2')).body).to.deep.equal(all.body.slice(0, 2));
      expect((await viewer.get('/library/genres?limit=-1')).status).to.equal(422);
    });
  });

  describe('given more than a page of albums', () => {
    before(async () => {
      const by = artistSeen('catalog', 'bulk-artist', 'Bulk Artist');
      await reconcileMany(app.ctx, Array.from({ length: 55 }, (_, n) => albumSeen('catalog', `bulk-${n}`, `Bulk Album ${String(n).padStart(2, '0')}`, by, { upc: `BULK${n}` })));
    });

    it('when asked with the default page size, then a page holds 50 and the next one the rest', async () => {
      const first = await list('/library/albums?sort=name');
      expect(first).to.include({ total: 61, page: 1, page_size: 50, has_more: true });
      expect(first.items).to.have.length(50);
      const second = await list('/library/albums?sort=name&page=2');
      expect(second).to.include({ page: 2, has_more: false });
      expect(second.items).to.have.length(11);
      expect(new Set([...first.items, ...second.items].map((r) => r.id)).size).to.equal(61);
    });

    it('when paged a few at a time in any order, then every sort and filter answers the pages of its one-page list', async () => {
      for (const sort of ['recent', 'name', 'source_count']) {
        for (const filter of ['all', 'playable']) {
          const path = `/library/albums?sort=${sort}&filter=${filter}`;
          const whole = (await list(`${path}&page_size=100`)).items.map((r) => r.id);
          const pages = Math.ceil(whole.length / 7);
          // In order (each page begins where the last one ended), then back and forth.
          for (const page of [...Array.from({ length: pages }, (_, i) => i + 1), 3, pages, 2, 2]) {
            const read = await list(`${path}&page=${page}&page_size=7`);
            expect(read.items.map((r) => r.id), `${path} page ${page}`).to.deep.equal(whole.slice((page - 1) * 7, page * 7));
            expect(read).to.include({ total: whole.length, has_more: page * 7 < whole.length });
          }
        }
      }
    });

    it('when an album arrives between two reads of a page, then the total and the page include it', async () => {
      const path = '/library/albums?sort=name&page_size=7';
      await list(`${path}&page=1`);
      const before = await list(`${path}&page=2`);
      await reconcile(app.ctx, albumSeen('catalog', 'bulk-new', 'Bulk Album 00 bis', artistSeen('catalog', 'bulk-artist', 'Bulk Artist'), { upc: 'BULKNEW' }));
      const after = await list(`${path}&page=2`);
      const whole = (await list('/library/albums?sort=name&page_size=100')).items.map((r) => r.id);
      expect(after.total).to.equal(before.total + 1);
      expect(after.items.map((r) => r.id)).to.deep.equal(whole.slice(7, 14));
      expect(after.items.map((r) => r.id)).to.not.deep.equal(before.items.map((r) => r.id));
    });
  });

  it('needs a session', async () => {
    for (const path of ['/library/artists', '/library/albums', '/library/tracks', '/library/genres']) expect((await app.client().get(path)).status).to.equal(401);
  });
});
