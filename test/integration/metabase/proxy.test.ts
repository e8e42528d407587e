import { expect } from 'chai';
import { artist, releaseGroup } from '../../fakes/metabase/builders.ts';
import { type MetabaseFake, startMetabaseFake } from '../../fakes/metabase/server.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';

const ED = 'b8a7c51f-362c-4dcb-a259-bc6e0095f0a6';
const CONTACT = 'ops@example.org';

describe('metabase proxy: search, lookups, browse, barcode and cover art through one cache', () => {
  let fake: MetabaseFake;
  let app: TestApp;
  let client: ApiClient;

  before(async () => {
    fake = await startMetabaseFake();
    app = await startTestApp({ ...fake.env, METABASE_CONTACT: CONTACT });
    ({ client } = await signedInAs(app, 'viewer'));
  });
  beforeEach(() => fake.clearRequests());
  after(async () => {
    await app.close();
    await fake.closeAll();
  });

  it('searches with the Lucene query, paging and fmt=json, naming itself and its contact, and answers in the provider’s shape', async () => {
    const res = await client.get('/metabase/search/artists?q=nirvana&limit=2&offset=0');
    expect(res.status).to.equal(200);
    expect(res.body.count).to.equal(3);
    expect(res.body.artists).to.have.length(2);
    expect(res.body.artists[0]).to.include.keys('id', 'score', 'sort-name');
    const [sent] = fake.requestsTo('/artist');
    expect(sent?.query).to.deep.equal({ query: 'nirvana', limit: '2', offset: '0', fmt: 'json' });
    expect(sent?.headers['user-agent']).to.match(/^music-library-service\/0\.1\.0 \( ops@example\.org \)$/);
  });

  it('looks an entity up once with every inc the service reads; the next read is a cache hit; refresh=true asks again', async () => {
    const first = await client.get(`/metabase/artists/${ED}`);
    expect(first.status).to.equal(200);
    expect(first.body.name).to.equal('Ed Sheeran');
    expect(fake.requestsTo(`/artist/${ED}`)[0]?.query.inc).to.equal('aliases+tags+genres+url-rels+artist-rels');
    expect((await client.get(`/metabase/artists/${ED.toUpperCase()}`)).body.name).to.equal('Ed Sheeran');
    expect(fake.requestsTo(`/artist/${ED}`)).to.have.length(1);
    expect((await client.get(`/metabase/artists/${ED}?refresh=true`)).status).to.equal(200);
    expect(fake.requestsTo(`/artist/${ED}`)).to.have.length(2);
  });

  it('refuses a malformed MBID with 422 before asking, and answers 404 for an unknown one', async () => {
    const bad = await client.get('/metabase/recordings/not-an-mbid');
    expect(bad.status).to.equal(422);
    expect(bad.body.detail[0].loc).to.deep.equal(['path', 'mbid']);
    expect((await client.get('/metabase/works/00000000-0000-4000-8000-ffffffffffff')).status).to.equal(404);
    expect(fake.requestsTo('/recording')).to.have.length(0);
  });

  it('finds a release by barcode (a UPC matches its EAN twin), and caches a miss as a miss', async () => {
    const hit = await client.get('/metabase/releases/by-barcode/0075992398527');
    expect(hit.status).to.equal(200);
    expect(hit.body).to.include({ id: 'ff565cd7-acf8-4dc0-9603-72d1b7ae284b', barcode: '075992398527', title: '1984' });
    expect(fake.requestsTo('/release').map((r) => r.query.query)).to.deep.equal(['barcode:0075992398527', 'barcode:075992398527']);
    expect((await client.get('/metabase/releases/by-barcode/999999999999')).status).to.equal(404);
    expect((await client.get('/metabase/releases/by-barcode/999999999999')).status).to.equal(404);
    expect(fake.requestsTo('/release')).to.have.length(4);
    expect((await client.get('/metabase/releases/by-barcode/12ab')).status).to.equal(422);
  });

  it("browses an artist's release groups with the default page of 100", async () => {
    const band = fake.state.add('artist', artist({ name: 'Browse Band' }));
    fake.state.add('release-group', releaseGroup({ title: 'One', by: band }));
    const res = await client.get(`/metabase/artists/${band.id}/release-groups`);
    expect(res.status).to.equal(200);
    expect(res.body['release-groups'].map((g: { title: string }) => g.title)).to.deep.equal(['One']);
    expect(fake.requestsTo('/release-group')[0]?.query).to.deep.equal({ artist: band.id, limit: '100', offset: '0', fmt: 'json' });
  });

  it('follows the cover art redirect to the archive with a bare request: nothing of ours crosses to the other origin', async () => {
    const res = await client.get('/metabase/releases/25fbfbb4-b1ee-4448-aadf-ae3bc2e2dd27/cover-art');
    expect(res.status).to.equal(200);
    expect(res.body.images).to.have.length(3);
    expect(fake.coverArt.requests[0]?.headers['user-agent']).to.contain(CONTACT);
    const [archived] = fake.archive.requests;
    expect(archived?.path).to.equal('/download/mbid-25fbfbb4-b1ee-4448-aadf-ae3bc2e2dd27/release.index.json');
    expect(archived?.headers['user-agent']).to.equal('music-library-service/0.1.0');
    expect(archived?.headers).not.to.have.any.keys('cookie', 'authorization');
    expect((await client.get('/metabase/release-groups/f5093c06-23e3-404f-aeaa-40f72885ee3a/cover-art')).status).to.equal(404);
  });

  it('backs off on 503 and retries through the pacer; a 503 that lasts is a 502', async () => {
    fake.state.busy = 2;
    expect((await client.get('/metabase/recordings/cb2cc207-8125-445c-9ef9-6ea44eee959a')).status).to.equal(200);
    expect(fake.requestsTo('/recording')).to.have.length(3);
    fake.state.busy = 10;
    const failed = await client.get('/metabase/labels/c595c289-47ce-4fba-b999-b87503e8cb71');
    expect(failed.status).to.equal(502);
    expect(failed.body.detail).to.match(/^metabase: GET \/label\/c595c289-47ce-4fba-b999-b87503e8cb71 answered 503/);
    fake.state.busy = 0;
  });
});
