import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { encodePosition } from '../../../infra/eventstore/event-store.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { artistSeen } from '../../support/observations.ts';

interface Moment {
  time: string;
  position: string;
  doc: Record<string, unknown>;
  sourceDoc?: Record<string, unknown>;
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
const withoutAsOf = ({ as_of: _, ...doc }: Record<string, unknown>) => doc;

describe('GET /{kind}/{id}?as_of= and the history from/to', () => {
  let app: TestApp;
  let admin: ApiClient;
  let viewer: ApiClient;
  let target: string;
  let source: string;
  const moments: Moment[] = [];

  /** The live answers now, as a client saw them, with the time and the log position they stood at. */
  async function capture() {
    const doc = (await viewer.get(`/artists/${target}`)).body;
    const sourceDoc = (await viewer.get(`/artists/${source}`)).body;
    moments.push({ time: new Date().toISOString(), position: encodePosition(await app.ctx.store.headPosition()), doc, sourceDoc });
    await pause();
  }

  before(async () => {
    app = await startTestApp();
    admin = await signedInAdmin(app);
    viewer = (await signedInAs(app, 'viewer')).client;
    target = await reconcile(app.ctx, artistSeen('mediaserver', 'mediaserver::srv::7', 'Kate Bush'));
    source = await reconcile(app.ctx, artistSeen('catalog', '31', 'K. Bush', { mbid: 'mb-kate' }));
    await capture();
    await reconcile(app.ctx, artistSeen('metabase', 'mb-kate-2', 'Kate Bush', { mbid: 'mb-kate-2', alt_names: ['Catherine Bush'] }));
    await capture();
    expect((await admin.post(`/admin/canonical/artists/${target}/merge`, { source_id: source })).status).to.equal(200);
    await capture();
    expect((await admin.post(`/admin/canonical/artists/${target}/unmerge`, { source_id: source })).status).to.equal(200);
    await capture();
    expect((await admin.post(`/admin/canonical/artists/${target}/merge`, { source_id: source })).status).to.equal(200);
    await capture();
  });
  after(() => app.close());

  it('given five moments, when each is read back by time and by position, then the answer is the live one of then', async () => {
    for (const moment of moments) {
      for (const asOf of [moment.time, moment.position]) {
        const res = await viewer.get(`/artists/${target}?as_of=${encodeURIComponent(asOf)}`);
        expect(res.status).to.equal(200);
        expect(withoutAsOf(res.body)).to.deep.equal(moment.doc);
        expect(res.body.as_of.position).to.be.a('string');
        const then = await viewer.get(`/artists/${source}?as_of=${encodeURIComponent(asOf)}`);
        expect(withoutAsOf(then.body), `source at ${asOf}`).to.deep.equal(moment.sourceDoc);
      }
    }
  });

  it('then a time before the entity existed is a 404, and a malformed as_of a 422', async () => {
    expect((await viewer.get(`/artists/${target}?as_of=2000-01-01T00:00:00Z`)).status).to.equal(404);
    expect((await viewer.get(`/artists/${target}?as_of=yesterday`)).status).to.equal(422);
  });

  it('then the history pages and takes from/to bounds', async () => {
    const all = (await viewer.get(`/artists/${target}/history?limit=500`)).body as { position: string; type: string }[];
    expect(all.length).to.be.greaterThan(4);
    const page2 = (await viewer.get(`/artists/${target}/history?limit=2&page=2`)).body;
    expect(page2).to.deep.equal(all.slice(2, 4));
    const from = all[1]!.position;
    const to = all[3]!.position;
    const bounded = (await viewer.get(`/artists/${target}/history?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`)).body;
    expect(bounded).to.deep.equal(all.slice(1, 4));
    const untilFirst = (await viewer.get(`/artists/${target}/history?to=${encodeURIComponent(moments[0]!.time)}`)).body;
    expect(untilFirst.every((e: { position: string }) => all.slice(0, untilFirst.length).some((x) => x.position === e.position))).to.equal(true);
    expect(untilFirst.length).to.be.lessThan(all.length);
  });
});
