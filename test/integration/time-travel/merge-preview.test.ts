import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { comparePositions } from '../../../infra/eventstore/event-store.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { artistSeen } from '../../support/observations.ts';

const withoutAt = ({ at: _, ...rest }: Record<string, unknown>) => rest;

describe('POST /admin/canonical/{kind}/{target_id}/merge?dry_run=true', () => {
  let app: TestApp;
  let admin: ApiClient;
  let viewer: ApiClient;
  let target: string;
  let source: string;
  before(async () => {
    app = await startTestApp();
    admin = await signedInAdmin(app);
    viewer = (await signedInAs(app, 'viewer')).client;
    target = await reconcile(app.ctx, artistSeen('metabase', 'mb-prince', 'Prince', { mbid: 'mb-prince', alt_names: ['The Artist'] }));
    await reconcile(app.ctx, artistSeen('mediaserver', 'mediaserver::srv::9', 'Prince'));
    source = await reconcile(app.ctx, artistSeen('catalog', '77', 'Prince & The Revolution', { mbid: 'mb-other' }));
    await reconcile(app.ctx, artistSeen('scrobbler', 'prince and the revolution', 'prince and the revolution'));
    expect(source).to.not.equal(target);
    expect((await viewer.post('/me/favorites/artists', { canonical_id: source })).status).to.equal(200);
    expect((await viewer.post('/me/favorites/artists', { canonical_id: target })).status).to.equal(200);
    expect((await viewer.post(`/me/comments/artist/${source}`, { body: 'the 1984 line-up' })).status).to.equal(200);
  });
  after(() => app.close());

  it('given two artists, when a viewer asks for a dry run, then it is refused', async () => {
    expect((await viewer.post(`/admin/canonical/artists/${target}/merge?dry_run=true`, { source_id: source })).status).to.equal(403);
  });

  it('when the admin asks for a dry run, then nothing is appended and the source still stands', async () => {
    const head = await app.ctx.store.headPosition();
    const res = await admin.post(`/admin/canonical/artists/${target}/merge?dry_run=true`, { source_id: source });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ dry_run: true, kind: 'artist', target_id: target, source_id: source });
    expect(comparePositions(await app.ctx.store.headPosition(), head)).to.equal(0);
    expect((await viewer.get(`/artists/${source}`)).body).to.include({ tombstoned: false, merged_into: null });
  });

  it('then the real merge appends exactly the predicted events and re-points the predicted user data', async () => {
    const preview = (await admin.post(`/admin/canonical/artists/${target}/merge?dry_run=true`, { source_id: source })).body;
    expect(preview.refs_moved.map((r: { source: string }) => r.source).sort()).to.deep.equal(['catalog', 'scrobbler']);
    expect(preview.user_data).to.deep.equal({ favorites: 1, comments: 1, album_collection: 0, scrobbles: 0 });
    expect(preview.conflicts.favorites).to.equal(1);
    const nameConflict = preview.conflicts.fields.find((c: { field: string }) => c.field === 'name');
    expect(nameConflict).to.deep.equal({ field: 'name', target: 'Prince', source: 'Prince & The Revolution', kept: 'Prince' });
    expect(preview.conflicts.fields.map((c: { field: string }) => c.field)).to.include('mbid');

    const head = await app.ctx.store.headPosition();
    const merged = await admin.post(`/admin/canonical/artists/${target}/merge`, { source_id: source });
    expect(merged.status).to.equal(200);
    const appended = await app.ctx.store.readAll({ after: head, maxCount: 100 });
    expect(appended.map((e) => ({ stream_id: e.streamId, type: e.type, data: withoutAt(e.data as Record<string, unknown>) }))).to.deep.equal(
      preview.events.map((e: { stream_id: string; type: string; data: Record<string, unknown> }) => ({ ...e, data: withoutAt(e.data) })),
    );
    for (const c of preview.conflicts.fields) if (c.field !== 'name' && c.field !== 'artist_id') expect(merged.body[c.field]).to.deep.equal(c.kept);
    expect(merged.body.name).to.equal(nameConflict.kept);
    const moved = await app.ctx.db.selectFrom('favorites').selectAll().where('recorded_id', '=', source).where('canonical_id', '=', target).execute();
    expect(moved).to.have.length(preview.user_data.favorites);
    const notes = await app.ctx.db.selectFrom('comments').selectAll().where('canonical_id', '=', target).execute();
    expect(notes).to.have.length(preview.user_data.comments);
  });

  it('when a dry run names an entity merged into the other, then it is a 400 like the merge', async () => {
    expect((await admin.post(`/admin/canonical/artists/${target}/merge?dry_run=true`, { source_id: source })).status).to.equal(400);
    expect((await admin.post(`/admin/canonical/artists/${target}/merge?dry_run=true`, { source_id: 'nope' })).status).to.equal(404);
  });
});
