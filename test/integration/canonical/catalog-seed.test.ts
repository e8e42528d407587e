import { expect } from 'chai';
import { seedFromCatalog } from '../../../command/canonical/catalog-seed.ts';
import { NotFound, UpstreamError } from '../../../shared/errors.ts';
import type { ApiClient, TestApp } from '../../support/api.ts';
import { startTestApp } from '../../support/api.ts';
import { signedInAdmin } from '../../support/given.ts';
import { albumPayload, artistPayload } from '../../fakes/catalog/builders.ts';
import { type CatalogFake, startCatalogFake } from '../../fakes/catalog/server.ts';

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('seedFromCatalog', () => {
  let catalog: CatalogFake;
  let app: TestApp;
  let admin: ApiClient;
  before(async () => {
    catalog = await startCatalogFake();
    app = await startTestApp({ CATALOG_API_URL: catalog.url });
    admin = await signedInAdmin(app);
  });
  after(async () => {
    await app.close();
    await catalog.close();
  });
  beforeEach(() => catalog.clearRequests());

  it('given a catalog track, when seeded by a numeric id, then its canonical id; seeded again, the same id without a request', async () => {
    const id = await seedFromCatalog(app.ctx, 'track', 3135556);
    const doc = (await admin.get(`/tracks/${id}`)).body;
    expect(doc).to.include({ title: 'Harder Better Faster Stronger', album_title: 'Discovery', artist_name: 'Daft Punk' });
    catalog.clearRequests();
    expect(await seedFromCatalog(app.ctx, 'track', '3135556')).to.equal(id);
    expect(catalog.requests).to.have.length(0);
  });

  it('given two catalog albums merged, when the merged-away one is seeded, then the surviving id', async () => {
    const artist = artistPayload(930001, 'Pram');
    catalog.addAlbum(albumPayload(930002, 'Museum of Imaginary Animals', artist));
    catalog.addAlbum(albumPayload(930003, 'Museum of Imaginary Animals (Deluxe)', artist));
    const away = await seedFromCatalog(app.ctx, 'album', 930002);
    const target = await seedFromCatalog(app.ctx, 'album', 930003);
    const merged = await admin.post(`/admin/canonical/albums/${target}/merge`, { source_id: away });
    expect(merged.status).to.equal(200);
    expect(await seedFromCatalog(app.ctx, 'album', 930002)).to.equal(target);
  });

  it('given an id the catalog lacks, then NotFound', async () => {
    expect(await caught(seedFromCatalog(app.ctx, 'artist', 404404))).to.be.instanceOf(NotFound);
  });

  it('given a failing catalog, then UpstreamError', async () => {
    catalog.failNext('wrong-parameter');
    expect(await caught(seedFromCatalog(app.ctx, 'artist', 505505))).to.be.instanceOf(UpstreamError);
  });
});
