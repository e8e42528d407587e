import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { type CatalogFake, startCatalogFake } from '../../fakes/catalog/server.ts';
import { artist, artistRel, mbid, releaseGroup, urlRel } from '../../fakes/metabase/builders.ts';
import { type MetabaseFake, startMetabaseFake } from '../../fakes/metabase/server.ts';
import { liveState } from '../../fakes/scrobbler/live-state.ts';
import { type ScrobblerFake, startScrobblerFake } from '../../fakes/scrobbler/server.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin } from '../../support/given.ts';
import { artistSeen } from '../../support/observations.ts';
import { pollTask } from '../tasks/test-tasks.ts';

type Card = { title: string; origin: string; id: string | null; year: number | null };

describe('artist pages: discography shelves with fallbacks, related artists with affiliations', () => {
  let metabaseFake: MetabaseFake;
  let catalog: CatalogFake;
  let scrobbler: ScrobblerFake;
  let app: TestApp;
  let admin: ApiClient;
  let daftPunk: string;
  const thomas = { id: mbid(), name: 'Thomas Bangalter' };
  const duo = artist({ name: 'Daft Punk', relations: [artistRel('member of band', 'backward', thomas), artistRel('collaboration', 'backward', { id: mbid(), name: 'Daft Friends' }), urlRel('official homepage', 'https://daftpunk.example/')] });

  before(async () => {
    [metabaseFake, catalog, scrobbler] = await Promise.all([startMetabaseFake(), startCatalogFake(), startScrobblerFake()]);
    metabaseFake.state.add('artist', duo);
    const groups: [string, string | null, string[], string][] = [
      ['Discovery', 'Album', [], '2001-03-12'], ['Homework', 'Album', [], '1997-01-20'], ['Alive 2007', 'Album', ['Live'], '2007-11-19'],
      ['Around the World', 'Single', [], '1997-03-17'], ['Musique Vol. 1', 'Album', ['Compilation'], '2006-04-03'], ['TRON: Legacy', 'Album', ['Soundtrack'], '2010-12-03'],
    ];
    for (const [title, primary, secondary, date] of groups) metabaseFake.state.add('release-group', releaseGroup({ title, by: duo, primary, secondary, date }));
    const album = (id: number, title: string, record_type: string, release_date: string) => ({ id, title, record_type, release_date, cover_medium: `https://covers.example/${id}.jpg`, artist: { id: 27, name: 'Daft Punk' } });
    catalog.addAlbum(album(900001, 'Random Access Memories', 'album', '2013-05-17'));
    catalog.addAlbum(album(900002, 'Homework', 'album', '1997-01-20'));
    catalog.addAlbum(album(900003, 'Get Lucky', 'single', '2013-04-19'));
    catalog.addArtist({ id: 999, name: 'INXS' });
    catalog.setRelated(27, [13358, 999, 6404]);
    liveState(scrobbler.state).topAlbums.set('daft punk', ['Random Access Memories', 'Human After All', '(null)']);
    app = await startTestApp({ ...metabaseFake.env, ...scrobbler.env, CATALOG_API_URL: catalog.url });
    admin = await signedInAdmin(app);
    daftPunk = (await admin.get('/albums/resolve?catalog=302127')).body.artist_id;
    expect((await admin.post(`/artists/${daftPunk}/refs`, { source: 'metabase', external_id: duo.id })).status).to.equal(200);
    await reconcile(app.ctx, artistSeen('mediaserver', 'mediaserver::srv::k', 'Kavinsky'));
    await reconcile(app.ctx, artistSeen('metabase', 'e110c11f-1c94-4471-a350-c38f46b29389', 'Passengers (U2 side project)'));
    await reconcile(app.ctx, artistSeen('metabase', thomas.id, 'Thomas Bangalter'));
  });
  after(async () => {
    await app.close();
    await Promise.all([metabaseFake.closeAll(), catalog.close(), scrobbler.close()]);
  });

  it('shelves canonical albums first, then fallbacks from the metabase, the catalog and the scrobbler, each title once, newest first', async () => {
    const res = await admin.get(`/artists/${daftPunk}/discography`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const shelves = Object.fromEntries((res.body.buckets as { name: string; items: Card[] }[]).map((b) => [b.name, b.items.map((c) => `${c.title}/${c.origin}`)]));
    expect(shelves).to.deep.equal({
      Studio: ['Discovery/canonical', 'Random Access Memories/catalog', 'Homework/metabase'],
      Live: ['Alive 2007/metabase'],
      Compilations: ['Musique Vol. 1/metabase'],
      'EPs & Singles': ['Get Lucky/catalog', 'Around the World/metabase'],
      Other: ['TRON: Legacy/metabase', 'Human After All/scrobbler'],
    });
    expect(res.body.buckets[0].items[0].id).to.be.a('string');
    expect(res.body.unavailable).to.deep.equal([]);
  });

  it('leaves out a source that fails, and says so', async () => {
    catalog.failNext({ status: 500 }, { status: 500 }, { status: 500 }, { status: 500 });
    await app.ctx.db.deleteFrom('catalog_cache').where('kind', '=', 'artist-albums').execute();
    const res = await admin.get(`/artists/${daftPunk}/discography`);
    expect(res.status).to.equal(200);
    expect(res.body.unavailable.map((u: { source: string }) => u.source)).to.deep.equal(['catalog']);
    expect(res.body.buckets[0].items.map((c: Card) => c.title)).to.deep.equal(['Discovery', 'Homework']);
    expect((await admin.get('/artists/01UNKNOWN0000000000000000/discography')).status).to.equal(404);
  });

  it('merges the catalog’s related and the scrobbler’s similar artists, flags those in the library, and keeps every affiliation', async () => {
    const relations = await admin.post('/admin/canonical/enrich/mb-relations');
    expect((await pollTask(admin, relations.body.task_id, undefined, 60_000)).status).to.equal('completed');
    const res = await admin.get(`/artists/${daftPunk}/related`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const related = res.body.related as { name: string; sources: string[]; in_library: boolean }[];
    expect(related.map((r) => r.name)).to.deep.equal(['INXS', 'Kavinsky', 'Passengers', 'Justice']);
    expect(related[0]!.sources).to.deep.equal(['catalog', 'scrobbler']);
    expect(related.filter((r) => r.in_library).map((r) => r.name)).to.deep.equal(['Kavinsky', 'Passengers']);
    const ties = res.body.affiliations as { name: string; relation: string; in_library: boolean }[];
    expect(ties.map((t) => [t.name, t.relation, t.in_library])).to.deep.equal([['Thomas Bangalter', 'member', true], ['Daft Friends', 'collaborator', false]]);

    const mine = (await admin.get(`/artists/${daftPunk}/related?in_library_only=true&sort=alpha`)).body;
    expect(mine.related.map((r: { name: string }) => r.name)).to.deep.equal(['Kavinsky', 'Passengers']);
    expect(mine.affiliations).to.have.length(2);
    expect((await admin.get(`/artists/${daftPunk}/related?sort=popular`)).status).to.equal(422);
  });
});
