import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import type { DatabaseHandle } from '../../../infra/db/create-db.ts';
import { replayInto } from '../../../infra/projections/replay.ts';
import { projectors } from '../../../projectors/registry.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { freshDatabase } from '../../support/database.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { artistSeen } from '../../support/observations.ts';

describe('replay into a scratch database (npm run replay -- --to <position>)', () => {
  let app: TestApp;
  let scratch: DatabaseHandle;
  let viewer: ApiClient;
  before(async () => {
    app = await startTestApp();
    scratch = await freshDatabase();
    await signedInAdmin(app);
    viewer = (await signedInAs(app, 'viewer')).client;
  });
  after(async () => {
    await scratch.close();
    await app.close();
  });

  it('given writes after a position, when the log is replayed to it, then the read models are those of then', async () => {
    const a = await reconcile(app.ctx, artistSeen('mediaserver', 'mediaserver::srv::1', 'Nina Simone'));
    expect((await viewer.post('/me/favorites/artists', { canonical_id: a })).status).to.equal(200);
    const position = await app.ctx.store.headPosition();
    const docsThen = await app.ctx.db.selectFrom('canonical_docs').selectAll().orderBy('id').execute();
    const favoritesThen = await app.ctx.db.selectFrom('favorites').selectAll().orderBy('recorded_id').execute();

    const b = await reconcile(app.ctx, artistSeen('catalog', '5', 'Miles Davis'));
    expect((await viewer.post('/me/favorites/artists', { canonical_id: b })).status).to.equal(200);

    const summary = await replayInto(app.ctx.store, scratch.db, projectors, position);
    expect(summary.failed).to.deep.equal({});
    expect(summary.through).to.deep.equal(position);
    expect(summary.read_models.canonical_docs).to.deep.equal({ canonical_docs: docsThen.length });
    expect(summary.read_models.favorites).to.deep.equal({ favorites: 1 });
    expect(await scratch.db.selectFrom('canonical_docs').selectAll().orderBy('id').execute()).to.deep.equal(docsThen);
    expect(await scratch.db.selectFrom('favorites').selectAll().orderBy('recorded_id').execute()).to.deep.equal(favoritesThen);
  });
});
