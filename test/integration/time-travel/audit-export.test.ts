import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { encodeCursor } from '../../../infra/eventstore/log-point.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { artistSeen } from '../../support/observations.ts';

const SEEDED = 4000;
const TYPE = 'EnrichmentErrorsCleared';

/** A lean bulk seed: one multi-stream append per thousand events, of an event one cheap projector reads. */
async function seed(app: TestApp, count: number) {
  for (let done = 0; done < count; done += 1000) {
    const n = Math.min(1000, count - done);
    await app.ctx.store.appendMany([{ streamId: 'enrichmenterrors-all', expectedRevision: 'any', events: Array.from({ length: n }, () => ({ type: TYPE, data: { source: null, at: new Date().toISOString() } })) }]);
  }
}

describe('GET /admin/audit/events', () => {
  let app: TestApp;
  let admin: ApiClient;
  let viewer: ApiClient;
  before(async () => {
    app = await startTestApp();
    admin = await signedInAdmin(app);
    viewer = (await signedInAs(app, 'viewer')).client;
    await reconcile(app.ctx, artistSeen('mediaserver', 'mediaserver::srv::1', 'Björk'));
    await seed(app, SEEDED);
  });
  after(() => app.close());

  it('given thousands of events, when pages are walked while appends continue, then every event comes once, in log order, on stable cursors', async () => {
    const seen: string[] = [];
    const pages = new Map<string, string[]>();
    let after: string | undefined;
    for (let page = 0; ; page++) {
      const res = await admin.get(`/admin/audit/events?type=${TYPE}&limit=1000${after ? `&after=${after}` : ''}`);
      expect(res.status).to.equal(200);
      const cursors = res.body.events.map((e: { cursor: string }) => e.cursor);
      if (after) pages.set(after, cursors);
      seen.push(...cursors);
      if (page === 1) await seed(app, 500);
      if (!res.body.has_more) break;
      after = res.body.next;
    }
    const logged = (await app.ctx.store.readAll({ maxCount: 100_000 })).filter((e) => e.type === TYPE).map((e) => encodeCursor(e.position));
    expect(seen).to.have.length(SEEDED + 500);
    expect(seen).to.deep.equal(logged);
    for (const [cursor, cursors] of pages) {
      const again = await admin.get(`/admin/audit/events?type=${TYPE}&limit=1000&after=${cursor}`);
      expect(again.body.events.map((e: { cursor: string }) => e.cursor)).to.deep.equal(cursors);
    }
  });

  it('then the filters select by stream prefix, and the payloads are as recorded', async () => {
    const res = await admin.get('/admin/audit/events?stream_prefix=artist-&limit=10');
    expect(res.status).to.equal(200);
    expect(res.body.events.length).to.be.greaterThan(0);
    for (const e of res.body.events) expect(e.stream_id.startsWith('artist-')).to.equal(true);
    const linked = res.body.events.find((e: { type: string }) => e.type === 'RefLinked');
    expect(linked.data).to.include({ source: 'mediaserver', external_id: 'mediaserver::srv::1' });
  });

  it('then a bad cursor is a 422 and a viewer gets a 403', async () => {
    expect((await admin.get('/admin/audit/events?after=not-a-cursor')).status).to.equal(422);
    expect((await viewer.get('/admin/audit/events')).status).to.equal(403);
  });
});
