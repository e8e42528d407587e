import { expect } from 'chai';
import type { DatabaseHandle } from '../../../../infra/db/create-db.ts';
import { CATALOG_CACHE_TTL_MS, cachedCatalog } from '../../../../infra/upstreams/catalog/cache.ts';
import { createCatalogClient } from '../../../../infra/upstreams/catalog/client.ts';
import { UpstreamError } from '../../../../shared/errors.ts';
import { type CatalogFake, startCatalogFake } from '../../../fakes/catalog/server.ts';
import { freshDatabase } from '../../../support/database.ts';

describe('catalog payload cache', () => {
  let database: DatabaseHandle;
  let fake: CatalogFake;
  let clock: number;
  const now = () => new Date(clock);
  const catalog = (options: { refresh?: boolean } = {}) => cachedCatalog(database.db, createCatalogClient({ baseUrl: fake.url, retryBaseMs: 5, retries: 0 }), { now, ...options });

  before(async () => {
    database = await freshDatabase();
  });
  after(() => database.close());
  beforeEach(async () => {
    clock = Date.parse('2026-01-01T00:00:00Z');
    await database.db.deleteFrom('catalog_cache').execute();
    fake = await startCatalogFake();
  });
  afterEach(() => fake.close());

  it('given a fetched artist, when it is read again within the TTL, then the catalog is not asked', async () => {
    expect((await catalog().artist('27')).name).to.equal('Daft Punk');
    clock += CATALOG_CACHE_TTL_MS - 1000;
    expect((await catalog().artist('27')).name).to.equal('Daft Punk');
    expect(fake.requests).to.have.length(1);
  });

  it('given an entry older than the TTL, when it is read, then it is fetched again and refreshed', async () => {
    await catalog().albumWithTracks('302127');
    clock += CATALOG_CACHE_TTL_MS + 1000;
    const { tracks } = await catalog().albumWithTracks('302127');
    expect(tracks).to.have.length(5);
    expect(fake.requests.map((r) => r.path)).to.deep.equal(['/album/302127', '/album/302127/tracks', '/album/302127', '/album/302127/tracks']);
    const row = await database.db.selectFrom('catalog_cache').selectAll().where('kind', '=', 'album').executeTakeFirstOrThrow();
    expect(new Date(row.fetched_at).getTime()).to.equal(clock);
  });

  it('given a fresh entry, when refresh is asked, then the catalog is asked anyway', async () => {
    await catalog().track('3135556');
    await catalog({ refresh: true }).track('3135556');
    expect(fake.requests).to.have.length(2);
  });

  it('given a failing catalog, when a fetch fails, then nothing is cached', async () => {
    fake.failNext('wrong-parameter');
    let error: unknown;
    try {
      await catalog().artist('27');
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(UpstreamError);
    expect(await database.db.selectFrom('catalog_cache').selectAll().execute()).to.have.length(0);
    expect((await catalog().artist('27')).name).to.equal('Daft Punk');
  });

  it('given an entry that no longer parses, when it is read, then it is fetched again', async () => {
    await database.db.insertInto('catalog_cache').values({ kind: 'artist', catalog_id: '27', payload: JSON.stringify({ id: 'not a number' }), fetched_at: now() }).execute();
    expect((await catalog().artist('27')).name).to.equal('Daft Punk');
    expect(fake.requests).to.have.length(1);
  });
});
