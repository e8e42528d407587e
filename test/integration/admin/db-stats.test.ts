import { expect } from 'chai';
import { sql } from 'kysely';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import type { NewEvent } from '../../../infra/eventstore/event-store.ts';
import type { Projector } from '../../../infra/projections/projector.ts';
import { unitOfWork } from '../../../infra/projections/read-models.ts';
import { projectors } from '../../../projectors/registry.ts';
import { mediaserverLinkStream, mediaserverPlaylistsStream, monitorEventStream, scrobblesStream, userStream } from '../../../shared/streams.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { artistSeen } from '../../support/observations.ts';
import { pollUntil } from '../../support/scrobbler.ts';
import { FAILS, QUICK, registerTestTasks, startAndSettle } from '../tasks/test-tasks.ts';

const DAY = 86_400_000;
const now = Date.now();
const ago = (days: number) => new Date(now - days * DAY).toISOString();

/** A read model that stalls on its first event, as a bug would: db-stats must name it. */
const rigged: Projector = {
  name: 'rigged_monitor',
  version: 1,
  handles: ['MonitorEventRecorded'],
  tables: [],
  async apply() {
    throw new Error('rigged to fail');
  },
};

const scrobble = (id: string, uts: number) => ({
  scrobble_id: id, uts, artist: 'Artist', album: null, track: `Track ${id}`, artist_mbid: null, album_mbid: null, track_mbid: null,
  canonical_artist_id: null, canonical_album_id: null, canonical_track_id: null,
});

describe('database stats (GET /admin/db-stats)', () => {
  let app: TestApp;
  let admin: ApiClient;
  const stats = async (query = '') => {
    const res = await admin.get(`/admin/db-stats${query}`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body;
  };

  before(async () => {
    app = await startTestApp({}, undefined, { service: { extraProjectors: [rigged], runner: { retryMs: 10, maxAttempts: 2 } } });
    registerTestTasks(app);
    admin = await signedInAdmin(app);
    for (const name of ['ann', 'bob', 'dan']) await signedInAs(app, 'viewer', name);
    await signedInAs(app, 'staff', 'cat');
    // The links and syncs of the past weeks, as their flows append them.
    const given: [string, NewEvent][] = [
      [mediaserverLinkStream('ann'), { type: 'MediaserverLinked', data: { username: 'ann', credential_id: 'c-ann', account: { id: 1, uuid: 'u1', username: 'ann', title: 'ann', thumb: null }, pin_credential_id: null, at: ago(60) } }],
      [mediaserverPlaylistsStream('ann'), { type: 'MediaserverPlaylistsListed', data: { username: 'ann', server_id: 'srv', playlists: [], at: ago(20) } }],
      [mediaserverLinkStream('bob'), { type: 'MediaserverLinked', data: { username: 'bob', credential_id: 'c-bob', account: { id: 2, uuid: 'u2', username: 'bob', title: 'bob', thumb: null }, pin_credential_id: null, at: ago(1) } }],
      [userStream('cat'), { type: 'ScrobblerLinked', data: { username: 'cat', scrobbler_username: 'catfm', credential_id: 'c-cat', at: ago(40) } }],
      [scrobblesStream('cat'), { type: 'ScrobblesImported', data: { username: 'cat', scrobbler_username: 'catfm', task_id: 't1', page: 1, total_pages: 1, scrobbles: [scrobble('c1', 1_600_000_000), scrobble('c2', 1_600_000_100), scrobble('c3', 0)], at: ago(30) } }],
      [userStream('dan'), { type: 'ScrobblerLinked', data: { username: 'dan', scrobbler_username: 'danfm', credential_id: 'c-dan', at: ago(2) } }],
      [scrobblesStream('dan'), { type: 'ScrobblesImported', data: { username: 'dan', scrobbler_username: 'danfm', task_id: null, page: null, total_pages: null, scrobbles: [scrobble('d1', 1_600_000_200), scrobble('d2', 900_000_000), scrobble('d3', 1_600_000_300)], at: ago(0) } }],
      [monitorEventStream('m1'), { type: 'MonitorEventRecorded', data: { monitor_event_id: 'm1', source: 'monitor', delivery_id: 'm1', event: 'play', category: 'playback', media_type: null, user: null, title: null, artist: null, album: null, server: null, player: null, raw: {}, at: ago(0) } }],
    ];
    await unitOfWork(app.ctx.readModels, async () => {
      for (const [stream, event] of given) await app.ctx.store.append(stream, [event], 'any');
    }, { reactions: false });
    for (const n of [1, 2]) await reconcile(app.ctx, artistSeen('metabase', `mb-yes-${n}`, 'Yes', { mbid: `mb-yes-${n}` }));
    await reconcile(app.ctx, artistSeen('mediaserver', 'mediaserver::srv::1', 'Solo Act'));
    const [target, merged] = await Promise.all([1, 2].map(async (n) => (await admin.get(`/artists/resolve?mbid=mb-yes-${n}`)).body.id));
    expect((await admin.post(`/admin/canonical/artists/${target}/merge`, { source_id: merged })).status).to.equal(200);
    await startAndSettle(app, admin, QUICK);
    await startAndSettle(app, admin, FAILS);
  });
  after(() => app.close());

  it('counts users by role, links per upstream, scrobbles with invalid ones by kind, and tasks by status', async () => {
    const body = await stats();
    expect(body.users).to.deep.equal({ total: 5, by_role: { viewer: 3, staff: 1, admin: 1 } });
    expect(body.linked_accounts).to.deep.equal({ mediaserver: 2, scrobbler: 2 });
    expect(body.scrobbles).to.deep.equal({ total: 6, valid: 4, invalid: { total: 2, by_kind: { zero: 1, before_service: 1, future: 0 } } });
    expect(body.tasks).to.deep.equal({ total: 2, by_status: { completed: 1, failed: 1 } });
  });

  it('names the connected users with no sync or refresh in stale_days (14 by default), longest idle first', async () => {
    const stale = async (query: string) => (await stats(query)).stale_connected_users;
    const byDefault = await stale('');
    expect(byDefault).to.deep.include({ stale_days: 14, count: 2 });
    expect(byDefault.users).to.deep.equal([
      { username: 'cat', upstream: 'scrobbler', linked_at: ago(40), last_sync_at: ago(30) },
      { username: 'ann', upstream: 'mediaserver', linked_at: ago(60), last_sync_at: ago(20) },
    ]);
    expect((await stale('?stale_days=25')).users.map((u: { username: string }) => u.username)).to.deep.equal(['cat']);
    expect((await stale('?stale_days=45')).count).to.equal(0);
    // bob linked a day ago and never synced: stale only once the window is shorter than that.
    expect((await stale('?stale_days=1')).users.map((u: { username: string }) => u.username)).to.deep.equal(['cat', 'ann', 'bob']);
    expect((await admin.get('/admin/db-stats?stale_days=-1')).status).to.equal(422);
  });

  it('counts canonical entities (live, merged) and refs by source as the canonical read models hold them', async () => {
    const [body, canonical] = await Promise.all([stats(), admin.get('/admin/canonical/stats')]);
    const { by_kind, total_refs, refs_per_source } = canonical.body;
    for (const kind of ['artists', 'albums', 'tracks'] as const) {
      expect(body.canonical[kind], kind).to.deep.equal({ total: by_kind[kind].total, live: by_kind[kind].live, merged: by_kind[kind].merged });
    }
    expect(body.canonical.artists).to.deep.equal({ total: 3, live: 2, merged: 1 });
    expect(body.canonical.refs).to.equal(total_refs);
    expect(body.canonical.refs_by_source).to.deep.equal(refs_per_source);
  });

  it('counts the event log exactly: events, streams, oldest and newest, by stream category, and its size', async () => {
    const body = await stats();
    const counter = body.read_models.find((m: { name: string }) => m.name === 'db_counters');
    expect(counter).to.deep.include({ state: 'live', position: body.head, lag: 0 });
    const { db } = app.ctx;
    const log = await sql<{ events: number; oldest: Date; newest: Date }>`select count(*)::int as events, min(created_at) as oldest, max(created_at) as newest from events`.execute(db);
    const streams = await sql<{ n: number }>`select count(*)::int as n from streams`.execute(db);
    const byCategory = await sql<{ category: string; n: number }>`select split_part(stream_id, '-', 1) as category, count(*)::int as n from events group by 1`.execute(db);
    expect(body.event_log).to.deep.equal({
      events: log.rows[0]!.events,
      streams: streams.rows[0]!.n,
      oldest_at: new Date(log.rows[0]!.oldest).toISOString(),
      newest_at: new Date(log.rows[0]!.newest).toISOString(),
      by_category: Object.fromEntries(byCategory.rows.map((r) => [r.category, r.n])),
      store: 'postgres',
      size_bytes: body.event_log.size_bytes,
    });
    expect(body.event_log.size_bytes).to.be.greaterThan(0);
    expect(body.database.engine).to.equal(app.ctx.engine);
    expect(body.database.size_bytes).to.be.greaterThan(body.event_log.size_bytes);
  });

  it("lists every read model with its projector's state, position and lag, and its tables' rows and size", async () => {
    const body = await stats();
    const models = new Map(body.read_models.map((m: { name: string }) => [m.name, m]));
    for (const p of projectors) expect(models.has(p.name), p.name).to.equal(true);
    const users = (models.get('users') as { tables: { table: string }[] }).tables.find((t) => t.table === 'users');
    expect(users).to.deep.include({ rows: 5, rows_estimated: false });
    const scrobbles = models.get('scrobbles') as { rows: number; size_bytes: number; tables: { table: string; rows: number }[] };
    expect(scrobbles.tables.map((t) => [t.table, t.rows])).to.deep.equal([['scrobbles', 6], ['scrobble_mirror', 2]]);
    expect(scrobbles.rows).to.equal(8);
    expect(scrobbles.size_bytes).to.be.greaterThan(0);
  });

  it('names a stalled projector', async () => {
    const body = await pollUntil(stats, (b) => b.stalled_projectors.length > 0, 15_000);
    expect(body.stalled_projectors).to.deep.equal(['rigged_monitor']);
    const entry = body.read_models.find((m: { name: string }) => m.name === 'rigged_monitor');
    expect(entry).to.deep.include({ state: 'stalled', rows: 0, error: 'rigged to fail' });
    expect(entry.stalled_on.type).to.equal('MonitorEventRecorded');
    expect(body.read_models.filter((m: { state: string }) => m.state !== 'live').map((m: { name: string }) => m.name)).to.deep.equal(['rigged_monitor']);
  });
});
