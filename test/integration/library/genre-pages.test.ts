import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { albumSeen, artistSeen, trackSeen } from '../../support/observations.ts';
import { libraryPage } from '../../../query/library/library.queries.ts';
import type { LibrarySort } from '../../../shared/library.ts';

/**
 * A list narrowed by a genre few rows carry is read from the genre's albums once its total is known
 * (the second time it is asked); the answer must be the one the first form gave, page for page.
 */
describe('library pages of a genre or a short name substring, read from the genre\'s albums or a kept order', () => {
  let app: TestApp;
  let viewer: ApiClient;

  before(async () => {
    app = await startTestApp();
    viewer = (await signedInAs(app, 'viewer')).client;
    const miles = artistSeen('mediaserver', 'mediaserver::srv::1', 'Miles Davis');
    const coltrane = artistSeen('mediaserver', 'mediaserver::srv::2', 'John Coltrane');
    const scrobbled = artistSeen('scrobbler', 'some band', 'Some Band');
    const kindOfBlue = albumSeen('mediaserver', 'mediaserver::srv::10', 'Kind of Blue', miles, { genres: ['Jazz', 'Modal'] });
    const bitches = albumSeen('mediaserver', 'mediaserver::srv::11', 'Bitches Brew', miles, { genres: ['Fusion'] });
    const loveSupreme = albumSeen('catalog', '500', 'A Love Supreme', coltrane, { genres: ['jazz'] });
    const demo = albumSeen('scrobbler', 'some band::Demo', 'Demo', scrobbled);
    await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::20', 'So What', miles, kindOfBlue));
    await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::21', 'Freddie Freeloader', miles, kindOfBlue));
    await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::22', 'Blue in Green', miles, kindOfBlue));
    // In the genre by its own genres only: its album is not.
    await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::23', 'Spanish Key', miles, bitches, { genres: ['Jazz'] }));
    await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::24', 'Miles Runs the Voodoo Down', miles, bitches));
    await reconcile(app.ctx, trackSeen('catalog', '900', 'Acknowledgement', artistSeen('catalog', '60', 'John Coltrane'), loveSupreme));
    await reconcile(app.ctx, trackSeen('catalog', '901', 'Resolution', artistSeen('catalog', '60', 'John Coltrane'), loveSupreme));
    for (let i = 0; i < 6; i++) await reconcile(app.ctx, trackSeen('scrobbler', `some band::Song ${i}`, `Song ${i}`, scrobbled, demo));
  });
  after(() => app.close());

  const names = async (path: string) => {
    const res = await viewer.get(path);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return { names: (res.body.items as { title?: string; name?: string }[]).map((r) => r.title ?? r.name), total: res.body.total, has_more: res.body.has_more };
  };

  /** Every page of a list asked twice: the first time counts it, the second reads it from the genre's albums. */
  async function pagesTwice(path: string, pageSize: number) {
    const first = [];
    const second = [];
    for (let page = 1; page <= 3; page++) first.push(await names(`${path}&page_size=${pageSize}&page=${page}`));
    for (let page = 1; page <= 3; page++) second.push(await names(`${path}&page_size=${pageSize}&page=${page}`));
    expect(second).to.deep.equal(first);
    return first;
  }

  for (const sort of ['recent', 'name', 'source_count']) {
    it(`tracks of a genre by ${sort}: their album's or their own, whatever its case, the same every time`, async () => {
      const pages = await pagesTwice(`/library/tracks?genre=JAZZ&sort=${sort}`, 2);
      expect(pages.flatMap((p) => p.names).sort()).to.deep.equal(['Acknowledgement', 'Blue in Green', 'Freddie Freeloader', 'Resolution', 'So What', 'Spanish Key']);
      expect(pages.map((p) => [p.total, p.has_more])).to.deep.equal([[6, true], [6, true], [6, false]]);
    });

    it(`artists of a genre by ${sort}: through their albums, the same every time`, async () => {
      const pages = await pagesTwice(`/library/artists?genre=jazz&sort=${sort}`, 1);
      expect(pages.flatMap((p) => p.names).sort()).to.deep.equal(['John Coltrane', 'Miles Davis']);
      expect(pages.map((p) => p.total)).to.deep.equal([2, 2, 2]);
    });
  }

  for (const [path, kind] of [['tracks', 'track'], ['albums', 'album'], ['artists', 'artist']] as const) {
    for (const [narrowed, by] of [['genre', 'jazz'], ['q', 'O'], ['q', 'e']] as const) {
      it(`${path} with ${narrowed}=${by}, paged from the order kept at their revision: each page as a page read afresh gives it`, async () => {
        for (const sort of ['recent', 'name', 'source_count'] as LibrarySort[]) {
          for (let round = 0; round < 2; round++) {
            for (let page = 1; page <= 4; page++) {
              const query = { sort, [narrowed]: by, page, page_size: 2 };
              const kept = await viewer.get(`/library/${path}?${narrowed}=${by}&sort=${sort}&page_size=2&page=${page}`);
              const afresh = JSON.parse((await libraryPage(app.ctx, kind, query, false)).text);
              expect(kept.body, `${sort}, page ${page}`).to.deep.equal(afresh);
            }
          }
        }
      });
    }
  }

  /** A list asked twice (so that its order is kept), then asked again after a jazz track of A Love Supreme is added. */
  async function keptThenAdded(path: string, externalId: string, title: string) {
    const before = await names(path);
    expect(await names(path)).to.deep.equal(before);
    const coltrane = artistSeen('catalog', '60', 'John Coltrane');
    await reconcile(app.ctx, trackSeen('catalog', externalId, title, coltrane, albumSeen('catalog', '500', 'A Love Supreme', coltrane, { genres: ['jazz'] })));
    return { before, after: await names(path) };
  }

  it('a genre list whose order is kept answers a track added to the genre at once', async () => {
    const { before, after } = await keptThenAdded('/library/tracks?genre=jazz&sort=name&page_size=50', '902', 'Pursuance');
    expect(after.total).to.equal(before.total + 1);
    expect(after.names).to.include('Pursuance');
  });

  it('a list of a one-letter name substring whose order is kept answers a track added to it at once', async () => {
    const { before, after } = await keptThenAdded('/library/tracks?q=u&sort=recent&page_size=50', '903', 'Consequences');
    expect(after.total).to.equal(before.total + 1);
    expect(after.names[0]).to.equal('Consequences');
  });

  it('a genre nothing carries answers an empty page, the same every time', async () => {
    const pages = await pagesTwice('/library/tracks?genre=polka&sort=recent', 5);
    expect(pages.map((p) => [p.names, p.total])).to.deep.equal([[[], 0], [[], 0], [[], 0]]);
  });
});
