import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { sql } from 'kysely';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin } from '../../support/given.ts';
import { artistSeen } from '../../support/observations.ts';
import { pollTask } from './test-tasks.ts';

const ARTISTS = 40;

describe('cancelling POST /admin/canonical/rebuild', () => {
  let app: TestApp;
  let admin: ApiClient;
  let slowed = false;

  before(async function () {
    this.timeout(120_000);
    // Small batches, slowed once the data is in: the rebuild runs long enough to be cancelled half-way.
    app = await startTestApp({}, undefined, { service: { runner: { batchSize: 3, beforeBatch: async () => void (slowed && (await sleep(15))) } } });
    admin = await signedInAdmin(app);
    for (let n = 1; n <= ARTISTS; n++) await reconcile(app.ctx, artistSeen('metabase', `mb-artist-${n}`, `Artist ${n}`, { mbid: `mb-artist-${n}` }));
    slowed = true;
  });
  after(() => app.close());

  /** What readers of the canonical read models see. */
  const reads = async () => {
    const [artists, stats] = await Promise.all([admin.get(`/artists/search?limit=200`), admin.get('/admin/canonical/stats')]);
    expect(artists.status).to.equal(200);
    expect(stats.status).to.equal(200);
    return { artists: artists.body, stats: stats.body };
  };

  /** Rows of the rebuild's copies so far (it replays into a schema of its own). */
  const replayedRows = async (): Promise<number> => {
    const { rows } = await sql<{ schema: string }>`select nspname as schema from pg_namespace where starts_with(nspname, 'read_model_rebuild_')`.execute(app.ctx.db);
    if (rows.length === 0) return 0;
    const counted = await sql<{ n: number }>`select count(*)::int as n from ${sql.id(rows[0]!.schema, 'canonical_docs')}`.execute(app.ctx.db).catch(() => ({ rows: [{ n: 0 }] }));
    return Number(counted.rows[0]!.n);
  };

  it('keeps answering the previous read models while it runs and after the cancel, leaves no copy behind, and the read models stay live', async function () {
    this.timeout(120_000);
    const before = await reads();
    expect(before.artists).to.have.length(ARTISTS);

    const started = await admin.post('/admin/canonical/rebuild');
    expect(started.status).to.equal(200);
    const taskId = started.body.task_id as string;
    let replayed = 0;
    for (let tries = 0; tries < 400 && replayed === 0; tries++) {
      expect(await reads()).to.deep.equal(before);
      replayed = await replayedRows();
      if (replayed === 0) await sleep(10);
    }
    expect(replayed, 'the rebuild had replayed part of the log').to.be.above(0).and.below(ARTISTS);
    expect(await reads()).to.deep.equal(before);

    const cancel = await admin.post(`/admin/task-history/${taskId}/cancel`);
    expect(cancel.body).to.deep.equal({ task_id: taskId, was_running: true });
    expect(await pollTask(admin, taskId)).to.include({ status: 'cancelled', error: null });
    expect(await reads()).to.deep.equal(before);

    // On PostgreSQL the process running the projections (maybe another one) sees the cancel at its
    // next look at the request, within a second, and drops the copies then.
    const copies = async () => Number((await sql<{ n: number }>`select count(*)::int as n from pg_namespace where starts_with(nspname, 'read_model_rebuild_')`.execute(app.ctx.db)).rows[0]!.n);
    for (let tries = 0; tries < 50 && (await copies()) > 0; tries++) {
      expect(await reads()).to.deep.equal(before);
      await sleep(100);
    }
    expect(await copies()).to.equal(0);
    const ready = await admin.get('/readyz');
    expect(ready.status).to.equal(200);
    expect(ready.body.projectors.find((p: { name: string }) => p.name === 'canonical_docs')).to.include({ state: 'live' });

    // Back live: a new artist shows up.
    await reconcile(app.ctx, artistSeen('metabase', 'mb-artist-late', 'Artist Late', { mbid: 'mb-artist-late' }));
    expect((await reads()).artists).to.have.length(ARTISTS + 1);
  });

  it('completes a rebuild after a cancelled one, equal to the live read models, which kept answering throughout', async function () {
    this.timeout(120_000);
    const before = await reads();
    const started = await admin.post('/admin/canonical/rebuild');
    let task = await admin.get(`/admin/task-history/${started.body.task_id}`);
    while (task.body.status === 'running') {
      expect(await reads()).to.deep.equal(before);
      await sleep(20);
      task = await admin.get(`/admin/task-history/${started.body.task_id}`);
    }
    expect(task.body).to.include({ status: 'completed', error: null });
    expect(task.body.summary.events_replayed).to.be.above(ARTISTS);
    expect(await reads()).to.deep.equal(before);
  });
});
