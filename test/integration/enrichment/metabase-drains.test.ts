import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { artist, artistRel, mbid, recording, urlRel, work } from '../../fakes/metabase/builders.ts';
import { type MetabaseFake, startMetabaseFake } from '../../fakes/metabase/server.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin } from '../../support/given.ts';
import { artistSeen, trackSeen, albumSeen } from '../../support/observations.ts';
import { pollTask } from '../tasks/test-tasks.ts';

const ED = { id: 'b8a7c51f-362c-4dcb-a259-bc6e0095f0a6', name: 'Ed Sheeran' };
const THINKING = 'cb2cc207-8125-445c-9ef9-6ea44eee959a';
const WORK = 'dc469dc8-198e-42e5-b5a7-6be2f0a95ac0';

describe('metabase drains: hydrate, relations, credits, promote; error rows; rebuild without the network', () => {
  let fake: MetabaseFake;
  let app: TestApp;
  let admin: ApiClient;
  const band = artist({ name: 'The Testers', aliases: ['Testers'] });
  const missing = mbid();
  const ids = {} as Record<'ed' | 'band' | 'thinking' | 'missing' | 'scrobbled' | 'owner', string>;

  before(async () => {
    fake = await startMetabaseFake();
    const sub = { id: mbid(), name: 'Testers Jr.' };
    band.relations = [
      urlRel('official homepage', 'https://testers.example/'),
      urlRel('wikidata', 'https://www.wikidata.org/wiki/Q1'),
      artistRel('member of band', 'backward', ED, { begin: '2011', end: null, ended: false }),
      artistRel('subgroup', 'backward', sub),
      artistRel('tribute', 'backward', { id: mbid(), name: 'Tested Again' }),
    ];
    fake.state.add('artist', band);
    fake.state.add('work', work({ id: WORK, title: 'Thinking Out Loud', composers: [ED, { id: mbid(), name: 'Amy Wadge' }], lyricists: [ED] }));
    app = await startTestApp(fake.env);
    admin = await signedInAdmin(app);
    ids.ed = await reconcile(app.ctx, artistSeen('metabase', ED.id, 'Ed Sheeran'));
    ids.band = await reconcile(app.ctx, artistSeen('metabase', band.id, 'The Testers'));
    const by = artistSeen('mediaserver', 'mediaserver::srv::a1', 'Ed Sheeran');
    const on = albumSeen('mediaserver', 'mediaserver::srv::b1', 'x', by);
    ids.thinking = await reconcile(app.ctx, trackSeen('metabase', THINKING, 'Thinking Out Loud', by, on));
    ids.missing = await reconcile(app.ctx, trackSeen('metabase', missing, 'Not There Yet', by, on));
    const promoted = mbid();
    ids.scrobbled = await reconcile(app.ctx, trackSeen('scrobbler', 'ed sheeran::photograph', 'Photograph', by, on, { mbid: promoted }));
    ids.owner = await reconcile(app.ctx, trackSeen('metabase', '5fb524f1-8cc8-4c04-a921-e34c0a911ea7', 'Taken', by, on));
    await reconcile(app.ctx, trackSeen('scrobbler', 'ed sheeran::taken', 'Taken Again', by, on, { mbid: '5fb524f1-8cc8-4c04-a921-e34c0a911ea7' }));
  });
  after(async () => {
    await app.close();
    await fake.closeAll();
  });

  async function run(path: string) {
    const res = await admin.post(`/admin/canonical/enrich/${path}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return pollTask(admin, res.body.task_id, undefined, 60_000);
  }
  const doc = async (kind: string, id: string) => (await admin.get(`/${kind}s/${id}`)).body;
  const errors = async (query = '') => (await admin.get(`/admin/canonical/enrich/errors${query}`)).body;

  it('hydrates the artists’ metabase refs once: aliases onto the docs; a second run finds nothing to do', async () => {
    const task = await run('hydrate-mb?kind=artist');
    expect(task.status).to.equal('completed');
    expect(task.summary).to.include({ processed: 2, failed: 0 });
    expect((await doc('artist', ids.ed)).alt_names).to.include.members(['Shearan', 'Ed Sheeran (en_CA)']);
    expect((await doc('artist', ids.band)).alt_names).to.deep.equal([]);
    expect(fake.requestsTo('/artist/')).to.have.length(2);
    expect((await run('hydrate-mb?kind=artist')).summary).to.include({ processed: 0 });
    expect(fake.requestsTo('/artist/')).to.have.length(2);
    const coverage = (await admin.get('/admin/canonical/enrich/mb-coverage')).body;
    expect(coverage.artists).to.deep.equal({ total: 2, with_metabase_ref: 2, cached: 2, not_cached: 0 });
  });

  it('files an error row for a ref the metabase does not know, counts attempts, and clears it once the entity hydrates', async () => {
    await run('hydrate-mb?kind=track');
    const first = await errors('?source=hydrate_mb');
    expect(first.items.map((r: { key: string; attempts: number }) => [r.key, r.attempts])).to.deep.equal([[`hydrate_mb:track:${ids.missing}`, 1]]);
    expect(first.items[0].error).to.match(/found nothing/);
    await run('hydrate-mb?kind=track');
    expect((await errors('?source=hydrate_mb')).items[0].attempts).to.equal(2);
    fake.state.add('recording', recording({ id: missing, title: 'There At Last', isrcs: ['GBAAA0000001'] }));
    const fixed = await run('hydrate-mb?kind=track');
    expect(fixed.summary).to.include({ processed: 1, failed: 0 });
    expect((await errors()).counts).to.not.have.property('hydrate_mb');
    expect(await doc('track', ids.missing)).to.include({ title: 'There At Last', duration_ms: 200000 });
  });

  it('puts external links, members and other ties onto artists, and says so in the coverage', async () => {
    fake.clearRequests();
    const task = await run('mb-relations');
    expect(task.summary).to.include({ processed: 2, failed: 0 });
    expect(fake.requestsTo('/artist/')).to.have.length(0);
    const testers = await doc('artist', ids.band);
    expect(testers.external_links.map((l: { category: string }) => l.category)).to.deep.equal(['official_site', 'wiki']);
    expect(testers.members).to.deep.equal([{ mbid: ED.id, name: ED.name, relation: 'member', begin: '2011', end: null, ended: false }]);
    const coverage = (await admin.get('/admin/canonical/enrich/mb-relations-coverage')).body;
    expect(coverage).to.deep.equal({ eligible: 2, enriched: 2, with_data: 1, backlog: 0, errors: 0 });
  });

  it('credits composers and lyricists from the recording’s work: the recording, then the work', async () => {
    fake.clearRequests();
    const task = await run('mb-credits');
    expect(task.summary).to.include({ processed: 3, failed: 0 });
    expect(fake.requestsTo(`/work/${WORK}`)).to.have.length(1);
    expect(fake.requestsTo(`/work/${WORK}`)[0]?.query.inc).to.equal('aliases+artist-rels+tags+genres');
    const thinking = await doc('track', ids.thinking);
    expect(thinking.credits.composer.map((c: { name: string }) => c.name)).to.deep.equal(['Ed Sheeran', 'Amy Wadge']);
    expect(thinking.credits.lyricist).to.deep.equal([{ name: 'Ed Sheeran', mbid: ED.id, work: 'Thinking Out Loud' }]);
    expect(thinking.credits.writer).to.deep.equal([]);
    const history = (await admin.get(`/tracks/${ids.thinking}/history`)).body as { type: string; data: { source: string; ref: unknown } }[];
    const enriched = history.filter((h) => h.type === 'EntityEnriched');
    expect(enriched.map((h) => h.data.source)).to.deep.equal(['metabase', 'metabase']);
    expect(enriched[1]!.data.ref).to.deep.equal({ source: 'metabase', external_id: THINKING });
  });

  it('promotes the scrobbler’s MBIDs to metabase refs, and files a conflict instead of moving a ref another entity owns', async () => {
    const task = await run('promote-scrobbler-mbids?kind=track');
    expect(task.summary).to.include({ processed: 2, failed: 1 });
    expect((await doc('track', ids.scrobbled)).refs.map((r: { source: string }) => r.source)).to.include('metabase');
    const conflict = (await errors('?source=promote_scrobbler&kind=track')).items;
    expect(conflict).to.have.length(1);
    expect(conflict[0].error).to.contain(ids.owner);
    expect((await doc('track', ids.owner)).refs).to.deep.equal([{ source: 'metabase', external_id: '5fb524f1-8cc8-4c04-a921-e34c0a911ea7' }]);
    expect((await admin.post('/admin/canonical/enrich/promote-scrobbler-mbids?kind=album')).status).to.equal(422);
  });

  it('rebuilds the same enriched docs from the log alone', async () => {
    const before = await Promise.all([doc('artist', ids.band), doc('track', ids.thinking), doc('artist', ids.ed)]);
    fake.clearRequests();
    const res = await admin.post('/admin/canonical/rebuild');
    expect((await pollTask(admin, res.body.task_id, undefined, 60_000)).status).to.equal('completed');
    const after = await Promise.all([doc('artist', ids.band), doc('track', ids.thinking), doc('artist', ids.ed)]);
    const strip = (d: Record<string, unknown>) => ({ ...d, updated_at: undefined, created_at: undefined });
    expect(after.map(strip)).to.deep.equal(before.map(strip));
    expect(fake.requests).to.have.length(0);
  });

  it('cancels a drain at its next item, and the next run continues after where it stopped', async () => {
    const more = Array.from({ length: 5 }, (_, i) => fake.state.add('artist', artist({ name: `Slow ${i}` })));
    for (const a of more) await reconcile(app.ctx, artistSeen('metabase', a.id, a.name));
    fake.state.delayMs = 150;
    const started = await admin.post('/admin/canonical/enrich/hydrate-mb?kind=artist&drain=true');
    await pollTask(admin, started.body.task_id, (t) => Number(t.progress?.processed ?? 0) >= 1, 60_000);
    expect((await admin.post(`/admin/task-history/${started.body.task_id}/cancel`)).body.was_running).to.equal(true);
    const cancelled = await pollTask(admin, started.body.task_id, undefined, 60_000);
    fake.state.delayMs = 0;
    expect(cancelled.status).to.equal('cancelled');
    const done = Number(cancelled.summary!.processed);
    expect(done).to.be.within(1, 4);
    const next = await run('hydrate-mb?kind=artist&limit=1');
    expect(next.summary).to.include({ started_after: cancelled.summary!.cursor, processed: 1 });
    expect((await run('hydrate-mb?kind=artist&drain=true')).summary).to.include({ processed: 5 - done - 1, finished: true });
  });

  it('clears the error rows of one source on request', async () => {
    expect((await errors()).counts).to.have.property('promote_scrobbler');
    expect((await admin.delete('/admin/canonical/enrich/errors?source=promote_scrobbler')).status).to.equal(200);
    expect((await errors()).counts).to.deep.equal({});
  });
});
