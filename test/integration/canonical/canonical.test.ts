import { expect } from 'chai';
import type { Observation } from '../../../command/canonical/observation.ts';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import type { ApiClient, TestApp } from '../../support/api.ts';
import { startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';

const artist = (source: Observation['source'], external_id: string, name: string, facts: Partial<Observation['facts']> = {}): Observation => ({
  source, kind: 'artist', external_id, facts: { name, ...facts },
});
const album = (source: Observation['source'], external_id: string, name: string, by: Observation, facts: Partial<Observation['facts']> = {}): Observation => ({
  source, kind: 'album', external_id, facts: { name, ...facts }, artist: by,
});
const track = (source: Observation['source'], external_id: string, name: string, by: Observation, on: Observation, facts: Partial<Observation['facts']> = {}): Observation => ({
  source, kind: 'track', external_id, facts: { name, ...facts }, artist: by, album: on,
});

describe('the canonical layer', () => {
  let app: TestApp;
  let admin: ApiClient;
  let viewer: ApiClient;
  let curator: ApiClient;
  before(async () => {
    app = await startTestApp();
    admin = await signedInAdmin(app);
    viewer = (await signedInAs(app, 'viewer')).client;
    curator = (await signedInAs(app, 'staff')).client;
  });
  after(() => app.close());

  describe('given observations of one song from three sources', () => {
    let trackId: string;
    before(async () => {
      const msArtist = artist('mediaserver', 'mediaserver::srv::1', 'The Beatles');
      const msAlbum = album('mediaserver', 'mediaserver::srv::2', 'Abbey Road (Remastered 2009)', msArtist, { year: 1969, genres: ['Rock'] });
      trackId = await reconcile(app.ctx, track('mediaserver', 'mediaserver::srv::3', 'Come Together', msArtist, msAlbum, { disc: 1, track_number: 1, isrc: 'GBAYE0601690', audio_quality: { codec: 'flac', bit_depth: 16, lossless: true } }));
      const catArtist = artist('catalog', '1', 'Beatles');
      const catAlbum = album('catalog', '12047952', 'Abbey Road', catArtist, { upc: '00602547670342' });
      await reconcile(app.ctx, track('catalog', '116348128', 'Come Together - Remastered 2009', catArtist, catAlbum, { isrc: 'GBAYE0601690', preview_url: 'https://cdn.example/preview.mp3', catalog_id: '116348128' }));
      const scArtist = artist('scrobbler', 'the beatles', 'the beatles');
      const scAlbum = album('scrobbler', 'the beatles::Abbey Road', 'Abbey Road', scArtist);
      await reconcile(app.ctx, track('scrobbler', 'the beatles::Come Together', 'Come Together', scArtist, scAlbum));
    });

    it('when the track is read, then it is one entity with the refs of every source', async () => {
      const res = await viewer.get(`/tracks/${trackId}`);
      expect(res.status).to.equal(200);
      expect(res.body.refs.map((r: { source: string }) => r.source).sort()).to.deep.equal(['catalog', 'mediaserver', 'scrobbler']);
      expect(res.body).to.include({ title: 'Come Together', title_folded: 'come together', isrc: 'GBAYE0601690', preview_url: 'https://cdn.example/preview.mp3', source_count: 3, playable: true });
      expect(res.body.sources).to.include({ mediaserver: true, catalog: true, scrobbler: true, streamer: false });
      expect(res.body.audio_quality).to.deep.equal({ codec: 'flac', bit_depth: 16, lossless: true });
    });

    it('then its artist and album were joined by name and by identifier', async () => {
      const doc = (await viewer.get(`/tracks/${trackId}`)).body;
      const artistDoc = (await viewer.get(`/artists/${doc.artist_id}`)).body;
      expect(artistDoc.refs).to.have.length(3);
      expect(artistDoc).to.include({ name: 'The Beatles', name_folded: 'beatles' });
      const albumDoc = (await viewer.get(`/albums/${doc.album_id}`)).body;
      expect(albumDoc).to.include({ year: 1969, upc: '00602547670342' });
      expect(albumDoc.genres).to.deep.equal(['rock']);
    });

    it('then the history records the evidence of each link', async () => {
      const res = await viewer.get(`/tracks/${trackId}/history`);
      const links = res.body.filter((e: { type: string }) => e.type === 'RefLinked').map((e: { data: { evidence: { rule: string } } }) => e.data.evidence.rule);
      expect(links).to.deep.equal(['new_entity', 'isrc', 'name_key']);
    });

    it('then it resolves by each local ref, and 404 when nothing resolves', async () => {
      expect((await viewer.get('/tracks/resolve?mediaserver_server=srv&mediaserver_rating_key=3')).body.id).to.equal(trackId);
      expect((await viewer.get('/tracks/resolve?isrc=GBAYE0601690')).body.id).to.equal(trackId);
      expect((await viewer.get(`/tracks/resolve?scrobbler=${encodeURIComponent('the beatles::Come Together')}`)).body.id).to.equal(trackId);
      expect((await viewer.get('/albums/resolve?upc=00602547670342')).status).to.equal(200);
      expect((await viewer.get('/tracks/resolve?isrc=NOPE')).status).to.equal(404);
      expect((await viewer.get('/tracks/resolve')).status).to.equal(404);
    });

    it('when searched by a piece of its name, then the track answers as its doc does, refs included', async () => {
      const res = await viewer.get('/tracks/search?q=ome toge');
      expect(res.status).to.equal(200);
      expect(res.body).to.have.length(1);
      const doc = (await viewer.get(`/tracks/${trackId}`)).body;
      expect(res.body[0]).to.deep.equal(doc);
      expect(Object.keys(res.body[0])).to.deep.equal(Object.keys(doc));
      expect(res.body[0].refs.map((r: { source: string }) => r.source)).to.deep.equal(['catalog', 'mediaserver', 'scrobbler']);
      expect((await viewer.get('/tracks/search?q=nothing like it')).body).to.deep.equal([]);
    });

    it('then refs/check tells which canonical owns each ref', async () => {
      const res = await viewer.post('/tracks/refs/check', { refs: [{ source: 'catalog', external_id: '116348128' }, { source: 'catalog', external_id: '999' }] });
      expect(res.body.results.map((r: { canonical_id: string | null }) => r.canonical_id)).to.deep.equal([trackId, null]);
    });
  });

  it('same-named artists with different metabase ids stay two entities', async () => {
    const a = await reconcile(app.ctx, artist('metabase', 'mb-a', 'Nirvana', { mbid: 'mb-a' }));
    const b = await reconcile(app.ctx, artist('metabase', 'mb-b', 'Nirvana', { mbid: 'mb-b' }));
    expect(a).to.not.equal(b);
    const c = await reconcile(app.ctx, artist('scrobbler', 'nirvana', 'nirvana'));
    expect([a, b]).to.include(c);
  });

  it('an album tracklist orders by disc then track number, nulls last', async () => {
    const by = artist('mediaserver', 'mediaserver::srv::50', 'Pink Floyd');
    const on = album('mediaserver', 'mediaserver::srv::51', 'The Wall', by);
    const ids: Record<string, string> = {};
    for (const [key, name, disc, number] of [['a', 'Hey You', 2, 1], ['b', 'In the Flesh?', 1, 1], ['c', 'Bonus Demo', undefined, undefined], ['d', 'The Thin Ice', 1, 2]] as const) {
      ids[key] = await reconcile(app.ctx, track('mediaserver', `mediaserver::srv::5${key}`, name, by, on, disc ? { disc, track_number: number } : {}));
    }
    const albumId = (await viewer.get(`/tracks/${ids.a}`)).body.album_id;
    const res = await viewer.get(`/albums/${albumId}/tracks`);
    expect(res.body.map((t: { title: string }) => t.title)).to.deep.equal(['In the Flesh?', 'The Thin Ice', 'Hey You', 'Bonus Demo']);
    expect(res.body[0]).to.include.keys('sources', 'preview_url', 'catalog_id');
  });

  describe('linking and unlinking refs by hand (staff, the household\'s curators)', () => {
    it('a viewer can neither link nor unlink: 403, and the entity keeps its refs', async () => {
      const a = await reconcile(app.ctx, artist('mediaserver', 'mediaserver::srv::72', 'Múm'));
      const linked = await viewer.post(`/artists/${a}/refs`, { source: 'metabase', external_id: 'mb-mum' });
      expect(linked.status).to.equal(403);
      expect(linked.body.detail).to.equal('Staff or admin role required');
      expect((await viewer.delete(`/artists/${a}/refs/mediaserver/mediaserver::srv::72`)).status).to.equal(403);
      const refs = (await viewer.get(`/artists/${a}`)).body.refs;
      expect(refs).to.deep.equal([{ source: 'mediaserver', external_id: 'mediaserver::srv::72' }]);
    });

    it('a staff member links a free ref, refuses one owned elsewhere with a 409 naming the owner, and unlinks', async () => {
      const a = await reconcile(app.ctx, artist('mediaserver', 'mediaserver::srv::70', 'Björk'));
      const b = await reconcile(app.ctx, artist('mediaserver', 'mediaserver::srv::71', 'Sigur Rós'));
      const linked = await curator.post(`/artists/${a}/refs`, { source: 'metabase', external_id: 'mb-bjork' });
      expect(linked.status).to.equal(200);
      expect(linked.body.refs).to.deep.include({ source: 'metabase', external_id: 'mb-bjork' });
      const taken = await curator.post(`/artists/${b}/refs`, { source: 'metabase', external_id: 'mb-bjork' });
      expect(taken.status).to.equal(409);
      expect(taken.body.detail).to.include(a);
      const unlinked = await curator.delete(`/artists/${a}/refs/metabase/mb-bjork`);
      expect(unlinked.status).to.equal(200);
      expect(unlinked.body.refs).to.not.deep.include({ source: 'metabase', external_id: 'mb-bjork' });
      expect((await curator.post(`/artists/${b}/refs`, { source: 'metabase', external_id: 'mb-bjork' })).status).to.equal(200);
      expect((await curator.delete(`/artists/${a}/refs/metabase/never-linked`)).status).to.equal(404);
    });
  });

  describe('merging', () => {
    it('follows a chain of three merges everywhere, and refuses self-merges and cycles', async () => {
      const ids = [];
      for (const n of [1, 2, 3]) ids.push(await reconcile(app.ctx, artist('metabase', `mb-dup-${n}`, `Duplicate Band ${n}`, { mbid: `mb-dup-${n}` })));
      const [a, b, c] = ids as [string, string, string];
      expect((await admin.post(`/admin/canonical/artists/${b}/merge`, { source_id: a })).status).to.equal(200);
      expect((await admin.post(`/admin/canonical/artists/${c}/merge`, { source_id: b })).status).to.equal(200);
      const viaFirst = await viewer.get(`/artists/${a}`);
      expect(viaFirst.body.id).to.equal(c);
      expect(viaFirst.body.refs.map((r: { external_id: string }) => r.external_id).sort()).to.deep.equal(['mb-dup-1', 'mb-dup-2', 'mb-dup-3']);
      expect((await viewer.get('/artists/resolve?mbid=mb-dup-1')).body.id).to.equal(c);
      expect((await admin.post(`/admin/canonical/artists/${c}/merge`, { source_id: c })).status).to.equal(400);
      expect((await admin.post(`/admin/canonical/artists/${a}/merge`, { source_id: c })).status).to.equal(400);
      expect((await viewer.post(`/admin/canonical/artists/${c}/merge`, { source_id: a })).status).to.equal(403);
      const history = (await viewer.get(`/artists/${a}/history`)).body;
      expect(history.at(-1)).to.deep.include({ type: 'EntityMergedInto' });
    });

    it('a merged album brings its tracks', async () => {
      const by = artist('mediaserver', 'mediaserver::srv::80', 'Radiohead');
      const first = album('mediaserver', 'mediaserver::srv::81', 'OK Computer', by, { mbid: 'rg-1' });
      const second = album('catalog', '555', 'OK Computer OKNOTOK', by, { mbid: 'rg-2' });
      const t1 = await reconcile(app.ctx, track('mediaserver', 'mediaserver::srv::82', 'Airbag', by, first, { disc: 1, track_number: 1 }));
      const t2 = await reconcile(app.ctx, track('catalog', '556', 'Lift', by, second, { disc: 3, track_number: 1 }));
      const albumA = (await viewer.get(`/tracks/${t1}`)).body.album_id;
      const albumB = (await viewer.get(`/tracks/${t2}`)).body.album_id;
      expect(albumA).to.not.equal(albumB);
      await admin.post(`/admin/canonical/albums/${albumA}/merge`, { source_id: albumB });
      const tracks = (await viewer.get(`/albums/${albumB}/tracks`)).body;
      expect(tracks.map((t: { id: string }) => t.id)).to.deep.equal([t1, t2]);
    });
  });

  describe('after all of the above', () => {
    it('a rebuild from the log gives read models equal to the live ones', async () => {
      const snapshot = async () => ({
        docs: await app.ctx.db.selectFrom('canonical_docs').selectAll().orderBy('id').execute(),
        refs: await app.ctx.db.selectFrom('external_refs').selectAll().orderBy('kind').orderBy('source').orderBy('external_id').execute(),
      });
      const live = await snapshot();
      expect(live.docs.length).to.be.greaterThan(10);
      const started = await admin.post('/admin/canonical/rebuild');
      expect(started.status).to.equal(200);
      let task;
      for (let i = 0; i < 100; i++) {
        task = (await admin.get(`/admin/task-history/${started.body.task_id}`)).body;
        if (task.status !== 'running') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(task.status).to.equal('completed');
      expect(await snapshot()).to.deep.equal(live);
    });
  });

  it('needs a session', async () => {
    expect((await app.client().get('/artists/search?q=x')).status).to.equal(401);
  });
});
