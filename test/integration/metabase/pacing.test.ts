import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { artist } from '../../fakes/metabase/builders.ts';
import { type MetabaseFake, startMetabaseFake } from '../../fakes/metabase/server.ts';
import { type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin } from '../../support/given.ts';
import { artistSeen } from '../../support/observations.ts';
import { pollTask } from '../tasks/test-tasks.ts';

describe('metabase pacing: one request a second for the whole process, whoever asks', () => {
  let fake: MetabaseFake;
  let app: TestApp;

  before(async () => {
    fake = await startMetabaseFake();
    app = await startTestApp({ ...fake.env, UPSTREAM_PACING: 'real' });
  });
  after(async () => {
    await app.close();
    await fake.closeAll();
  });

  it('spaces the requests of concurrent proxy reads and a drain at least a second apart, so the service never refuses one', async function () {
    this.timeout(60_000);
    fake.state.enforceRate = true;
    const admin = await signedInAdmin(app);
    const bands = [artist({ name: 'Paced One' }), artist({ name: 'Paced Two' })];
    for (const band of bands) {
      fake.state.add('artist', band);
      await reconcile(app.ctx, artistSeen('metabase', band.id, band.name));
    }
    const drain = await admin.post('/admin/canonical/enrich/hydrate-mb?kind=artist');
    const reads = await Promise.all([
      admin.get('/metabase/search/artists?q=nirvana'),
      admin.get('/metabase/releases/ff565cd7-acf8-4dc0-9603-72d1b7ae284b'),
      admin.get('/metabase/recordings/cb2cc207-8125-445c-9ef9-6ea44eee959a'),
    ]);
    expect(reads.map((r) => r.status)).to.deep.equal([200, 200, 200]);
    expect((await pollTask(admin, drain.body.task_id, undefined, 30_000)).summary).to.include({ processed: 2, failed: 0 });
    const times = fake.requestsTo('/').map((r) => r.at).sort((a, b) => a - b);
    expect(times).to.have.length(5);
    // Requests leave a second apart; on a loaded machine one may arrive a little later than sent.
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.min(...gaps), `gaps ${gaps.join(', ')} ms`).to.be.at.least(700);
    // Over the run the rate holds: five requests take four seconds at least (less a little jitter at both ends).
    expect(times[4]! - times[0]!).to.be.at.least(3700);
    expect(fake.state.tooFast).to.equal(0);
  });
});
