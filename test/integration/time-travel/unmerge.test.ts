import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { enrichmentCommands } from '../../../command/enrichment/enrichment-commands.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { albumSeen, artistSeen, trackSeen } from '../../support/observations.ts';
import { DAY, givenScrobblerLink, givenScrobbles, nowUts } from '../../support/scrobbles.ts';
import { pollTask } from '../tasks/test-tasks.ts';

/**
 * The read models an unmerge must give back, without the times a later write stamps (nor the docs'
 * list JSON, which renders their other columns and that time); `listener` reads the dashboard.
 */
async function readModels(app: TestApp, listener: ApiClient, admin: ApiClient) {
  const db = app.ctx.db;
  const dashboard = (await listener.get('/scrobbler/me/dashboard')).body;
  const errors = (await admin.get('/admin/canonical/enrich/errors')).body;
  const docs = await db.selectFrom('canonical_docs').selectAll().orderBy('id').execute();
  return {
    docs: docs.map(({ updated_at: _, list_json: __, ...row }) => row),
    refs: await db.selectFrom('external_refs').selectAll().orderBy('kind').orderBy('source').orderBy('external_id').execute(),
    favorites: await db.selectFrom('favorites').selectAll().orderBy('recorded_id').execute(),
    comments: await db.selectFrom('comments').selectAll().orderBy('comment_id').execute(),
    collection: await db.selectFrom('album_collection').selectAll().orderBy('recorded_id').execute(),
    scrobbles: await db.selectFrom('scrobbles').select(['scrobble_id', 'canonical_artist_id', 'canonical_album_id', 'canonical_track_id']).orderBy('scrobble_id').execute(),
    top: { artists: dashboard.top_artists, albums: dashboard.top_albums, tracks: dashboard.top_tracks },
    errors,
  };
}

describe('POST /admin/canonical/{kind}/{target_id}/unmerge', () => {
  let app: TestApp;
  let admin: ApiClient;
  let viewer: ApiClient;
  const ids: Record<string, string> = {};
  before(async () => {
    app = await startTestApp();
    admin = await signedInAdmin(app);
    const listener = await signedInAs(app, 'viewer');
    viewer = listener.client;
    const prince = artistSeen('mediaserver', 'mediaserver::srv::p', 'Prince');
    const b = albumSeen('mediaserver', 'mediaserver::srv::b', 'Purple Rain', prince, { year: 1984, upc: 'upc-b' });
    ids.trackB = await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::tb', 'When Doves Cry', prince, b, { isrc: 'isrc-b' }));
    ids.b = (await viewer.get(`/tracks/${ids.trackB}`)).body.album_id;
    ids.a = await reconcile(app.ctx, albumSeen('catalog', '900', 'Live at the Forum', prince, { upc: 'upc-a' }));
    ids.c = await reconcile(app.ctx, albumSeen('store', 'st-1', 'Around the World in a Day', prince, { year: 1985 }));
    expect(new Set(Object.values(ids)).size).to.equal(4);
    for (const id of [ids.a, ids.b, ids.c]) expect((await viewer.post('/me/favorites/albums', { canonical_id: id })).status).to.equal(200);
    expect((await viewer.post('/me/albums/wishlist', { canonical_id: ids.b })).status).to.equal(200);
    expect((await viewer.post(`/me/comments/album/${ids.a}`, { body: 'the live one' })).status).to.equal(200);
    expect((await viewer.post(`/me/comments/album/${ids.b}`, { body: 'the studio one' })).status).to.equal(200);
    // Plays of each album, named as the scrobbler spells them; C's is the oldest.
    await givenScrobblerLink(app, listener.username, 'prince-fan');
    const day = (Math.floor(nowUts() / DAY) - 3) * DAY;
    const play = (n: number, album: string, albumId: string | undefined) => ({ uts: day + n * 3600, artist: 'Prince', album, track: `${album} ${n}`, albumId });
    await givenScrobbles(app, listener.username, [
      play(1, 'Live at the Forum', ids.a), play(2, 'Live at the Forum', ids.a),
      play(3, 'Purple Rain', ids.b), play(4, 'Purple Rain', ids.b), play(5, 'Purple Rain', ids.b),
      play(0, 'Around the World in a Day', ids.c),
    ], 'prince-fan');
    // A drain's failures on A and B: A's leaves with the merge below, B's must come back with B.
    for (const id of [ids.a!, ids.b!]) await enrichmentCommands(app.ctx, null).failed('album', id, 'mb_barcode', new Error(`no barcode for ${id}`));
    // An earlier merge: what was recorded under A follows B, and must follow it back.
    expect((await admin.post(`/admin/canonical/albums/${ids.b}/merge`, { source_id: ids.a })).status).to.equal(200);
    await migrate();
  });

  /** The migrate step, which re-stamps mirrored scrobbles onto the end of their merge chain. */
  async function migrate() {
    const res = await admin.post('/admin/canonical/migrate');
    expect(res.status).to.equal(200);
    expect((await pollTask(admin, res.body.task_id)).status).to.equal('completed');
  }
  after(() => app.close());

  it('given a merge, when it is undone, then the read models equal those of a log where it never happened', async () => {
    const before = await readModels(app, viewer, admin);
    expect(before.scrobbles.filter((s) => s.canonical_album_id === ids.b)).to.have.length(5);
    expect((await admin.post(`/admin/canonical/albums/${ids.c}/merge`, { source_id: ids.b })).status).to.equal(200);
    await migrate();
    expect((await viewer.get(`/tracks/${ids.trackB}`)).body.album_id).to.equal(ids.c);
    const merged = await readModels(app, viewer, admin);
    expect(merged.favorites.filter((f) => f.canonical_id === ids.c)).to.have.length(3);
    expect(merged.scrobbles.filter((s) => s.canonical_album_id === ids.c)).to.have.length(6);
    expect(before.errors.items.map((e: { canonical_id: string }) => e.canonical_id)).to.deep.equal([ids.b]);
    expect(merged.errors.items).to.deep.equal([]);
    expect(merged.top.albums).to.deep.equal([{ canonical_id: ids.c, name: 'Around the World in a Day', artist_name: 'Prince', plays: 6 }]);

    const res = await admin.post(`/admin/canonical/albums/${ids.c}/unmerge`, { source_id: ids.b });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ id: ids.b, tombstoned: false, merged_into: null, title: 'Purple Rain', year: 1984 });
    expect(await readModels(app, viewer, admin)).to.deep.equal(before);
  });

  it('then the log records it as EntityUnmerged, with the refs and the ids that return', async () => {
    const history = (await viewer.get(`/albums/${ids.b}/history`)).body as { type: string; data: Record<string, unknown> }[];
    const unmerged = history.find((e) => e.type === 'EntityUnmerged')!;
    expect(unmerged.data).to.include({ target_id: ids.c });
    expect(unmerged.data.returning).to.deep.equal([ids.a]);
    expect((unmerged.data.refs as { source: string }[]).map((r) => r.source).sort()).to.deep.equal(['catalog', 'mediaserver']);
  });

  it('when it is undone twice, then the second is a 409; an unknown id is a 404', async () => {
    expect((await admin.post(`/admin/canonical/albums/${ids.c}/unmerge`, { source_id: ids.b })).status).to.equal(409);
    expect((await admin.post(`/admin/canonical/albums/${ids.c}/unmerge`, { source_id: 'nope' })).status).to.equal(404);
    expect((await viewer.post(`/admin/canonical/albums/${ids.c}/unmerge`, { source_id: ids.b })).status).to.equal(403);
  });

  it('when the merge is made again, then it holds as the first did (an unmerge is undone by merging)', async () => {
    expect((await admin.post(`/admin/canonical/albums/${ids.c}/merge`, { source_id: ids.b })).status).to.equal(200);
    expect((await viewer.get(`/albums/${ids.a}`)).body.id).to.equal(ids.c);
    const refs = (await viewer.get(`/albums/${ids.c}`)).body.refs.map((r: { source: string }) => r.source).sort();
    expect(refs).to.deep.equal(['catalog', 'mediaserver', 'store']);
    expect((await viewer.get(`/tracks/${ids.trackB}`)).body.album_id).to.equal(ids.c);
  });

  it('given plays of two artists, when their merge is undone, then every dashboard row is as before it, albums credited to the source included', async () => {
    const prince = await reconcile(app.ctx, artistSeen('catalog', 'ar-1', 'Prince'));
    const symbol = await reconcile(app.ctx, artistSeen('store', 'ar-2', 'The Artist'));
    const { username } = await signedInAs(app, 'viewer');
    await givenScrobblerLink(app, username, 'symbol-fan');
    const day = (Math.floor(nowUts() / DAY) - 2) * DAY;
    await givenScrobbles(app, username, [
      { uts: day + 3600, artist: 'Prince', album: 'Sign o the Times', track: 'Starfish', artistId: prince },
      { uts: day + 7200, artist: 'Prince', album: 'Sign o the Times', track: 'Housequake', artistId: prince },
      { uts: day + 10800, artist: 'The Artist', album: 'Emancipation', track: 'Betcha', artistId: symbol },
    ], 'symbol-fan');
    const dashboard = async () => {
      const db = app.ctx.db;
      return {
        scrobbles: await db.selectFrom('dashboard_scrobbles').selectAll().orderBy('scrobble_id').execute(),
        entities: await db.selectFrom('dashboard_entities').selectAll().orderBy('user_key').orderBy('kind').orderBy('entity_key').execute(),
        months: await db.selectFrom('dashboard_entity_months').selectAll().orderBy('user_key').orderBy('kind').orderBy('entity_key').orderBy('month').execute(),
        days: await db.selectFrom('dashboard_entity_days').selectAll().orderBy('user_key').orderBy('kind').orderBy('entity_key').orderBy('day').execute(),
        totals: await db.selectFrom('dashboard_totals').selectAll().orderBy('user_key').execute(),
        redirects: await db.selectFrom('dashboard_redirects').selectAll().orderBy('from_id').execute(),
      };
    };
    const before = await dashboard();
    expect((await admin.post(`/admin/canonical/artists/${symbol}/merge`, { source_id: prince })).status).to.equal(200);
    const merged = await dashboard();
    expect(merged.entities.filter((e) => e.kind === 'album' && e.artist_key === symbol)).to.have.length(2);
    expect((await admin.post(`/admin/canonical/artists/${symbol}/unmerge`, { source_id: prince })).status).to.equal(200);
    expect(await dashboard()).to.deep.equal(before);
  });
});
