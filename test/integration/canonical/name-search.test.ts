import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { searchByName } from '../../../query/canonical/search.queries.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { artistSeen } from '../../support/observations.ts';

/**
 * A name search reads the docs in its answer's order while the first ones fill the page, else it
 * turns to the trigram index: pages answered either way must be the same, and in the same order.
 */
describe('name search: the walk in the answer\'s order and the trigram index agree', () => {
  let app: TestApp;
  let viewer: ApiClient;

  before(async () => {
    app = await startTestApp();
    viewer = (await signedInAs(app, 'viewer')).client;
    // Twelve "The ..." bands, a few seen by two sources (they sort first), and names without it.
    for (let i = 0; i < 12; i++) await reconcile(app.ctx, artistSeen('scrobbler', `the band ${i}`, `The Band ${i}`));
    for (const i of [3, 7]) await reconcile(app.ctx, artistSeen('mediaserver', `mediaserver::srv::${i}`, `The Band ${i}`));
    for (const name of ['Bandit Queen', 'Solo Act', 'Other Thing', 'Husband', 'Band of Horses']) await reconcile(app.ctx, artistSeen('scrobbler', name.toLowerCase(), name));
  });
  after(() => app.close());

  const names = (json: string) => (JSON.parse(json) as { name: string }[]).map((d) => d.name);

  for (const q of ['band', 'the band 1', 'BAND', 'ban', 'horses', 'zzz', '', '  ', '50%_off']) {
    it(`given q=${JSON.stringify(q)}, then every page walked within 3 docs, within 1,000, and over HTTP is the same`, async () => {
      for (const [limit, offset] of [[5, 0], [5, 5], [3, 9], [20, 0], [2, 16]] as const) {
        const short = names(await searchByName(app.ctx.db, app.ctx.engine, { kind: 'artist', q, limit, offset }, { walk: 3, keepOrder: false }));
        const long = names(await searchByName(app.ctx.db, app.ctx.engine, { kind: 'artist', q, limit, offset }, { keepOrder: false }));
        expect(short, `limit ${limit} offset ${offset}`).to.deep.equal(long);
        const res = await viewer.get(`/artists/search?q=${encodeURIComponent(q)}&limit=${limit}&offset=${offset}`);
        expect(res.status).to.equal(200);
        expect(res.body.map((d: { name: string }) => d.name)).to.deep.equal(long);
      }
    });
  }

  /** A search asked three times at one revision: answered, then its order read, then its page from that order. */
  async function thrice(q: string, limit: number, offset: number) {
    const answers: string[][] = [];
    for (let i = 0; i < 3; i++) answers.push(names(await searchByName(app.ctx.db, app.ctx.engine, { kind: 'artist', q, limit, offset }, { walk: 3 })));
    return answers;
  }

  for (const q of ['the band 1', 'horses', 'band', 'ban', 'zzz']) {
    it(`given q=${JSON.stringify(q)} asked again while the docs stand (its order kept), then every page is the page searched afresh`, async () => {
      for (const [limit, offset] of [[2, 0], [2, 1], [1, 2], [5, 0], [3, 9], [20, 0]] as const) {
        const fresh = names(await searchByName(app.ctx.db, app.ctx.engine, { kind: 'artist', q, limit, offset }, { walk: 3, keepOrder: false }));
        expect(await thrice(q, limit, offset), `limit ${limit} offset ${offset}`).to.deep.equal([fresh, fresh, fresh]);
      }
    });
  }

  it('given a search whose order is kept, when an artist holding the string is added, then the next answer holds it', async () => {
    const [, , kept] = await thrice('the band 1', 20, 0);
    await reconcile(app.ctx, artistSeen('scrobbler', 'the band 19', 'The Band 19'));
    const after = names(await searchByName(app.ctx.db, app.ctx.engine, { kind: 'artist', q: 'the band 1', limit: 20, offset: 0 }, { walk: 3 }));
    expect(after).to.deep.equal([...kept!, 'The Band 19']);
  });

  it('given a piece most names hold, then the two-source names come first, then by folded name ("The" dropped)', async () => {
    const res = await viewer.get('/artists/search?q=band&limit=4');
    expect(res.body.map((d: { name: string }) => d.name)).to.deep.equal(['The Band 3', 'The Band 7', 'The Band 0', 'The Band 1']);
  });
});
