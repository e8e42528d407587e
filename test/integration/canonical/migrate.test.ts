import { expect } from 'chai';
import { sql } from 'kysely';
import { registerRekeyer } from '../../../command/canonical/migrate-rekeyers.ts';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { artistSeen, albumSeen, trackSeen } from '../../support/observations.ts';
import { pollTask } from '../tasks/test-tasks.ts';

/**
 * Tables of user data that only this test has: one with a kind column and a unique key (like
 * favorites), and one with two fixed-kind columns (like stamped scrobbles).
 */
async function createTestTables(app: TestApp) {
  for (const statement of [
    `create table test_favorites (username text not null, kind text not null, canonical_id text not null, primary key (username, kind, canonical_id))`,
    `create table test_plays (id integer primary key, track_id text, album_id text)`,
  ]) await sql.raw(statement).execute(app.ctx.db);
}

describe('POST /admin/canonical/migrate', () => {
  let app: TestApp;
  let admin: ApiClient;
  const undo: (() => void)[] = [];
  const ids: Record<string, string> = {};

  before(async () => {
    app = await startTestApp();
    admin = await signedInAdmin(app);
    await createTestTables(app);
    undo.push(
      registerRekeyer({ table: 'test_favorites', columns: [{ column: 'canonical_id', kind: { column: 'kind' } }], unique: [['username', 'kind', 'canonical_id']], unresolvable: 'delete' }),
      registerRekeyer({ table: 'test_plays', columns: [{ column: 'track_id', kind: 'track' }, { column: 'album_id', kind: 'album' }], unresolvable: 'null' }),
    );
    for (const n of ['a', 'b', 'c']) ids[n] = await reconcile(app.ctx, artistSeen('metabase', `mb-${n}`, `Band ${n}`, { mbid: `mb-${n}` }));
    const by = artistSeen('mediaserver', 'mediaserver::srv::1', 'Someone');
    const x = albumSeen('mediaserver', 'mediaserver::srv::2', 'X', by, { upc: 'upc-x' });
    const y = albumSeen('mediaserver', 'mediaserver::srv::3', 'Y', by, { upc: 'upc-y' });
    ids.t1 = await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::4', 'T', by, x, { isrc: 'isrc-1' }));
    ids.t2 = await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::5', 'T', by, y, { isrc: 'isrc-2' }));
    ids.x = (await admin.get(`/tracks/${ids.t1}`)).body.album_id;
    ids.y = (await admin.get(`/tracks/${ids.t2}`)).body.album_id;
    // A chain a → b → c, an album and a track merged away.
    for (const [kind, target, source] of [['artists', 'b', 'a'], ['artists', 'c', 'b'], ['albums', 'y', 'x'], ['tracks', 't2', 't1']] as const) {
      expect((await admin.post(`/admin/canonical/${kind}/${ids[target]}/merge`, { source_id: ids[source] })).status).to.equal(200);
    }
    const favorites = [['u1', 'artist', ids.a], ['u1', 'artist', ids.c], ['u2', 'artist', ids.b], ['u3', 'artist', ids.a], ['u1', 'album', ids.x], ['u1', 'album', ids.y], ['u1', 'artist', 'NO-SUCH-ENTITY']];
    for (const [username, kind, id] of favorites) await sql`insert into test_favorites values (${username}, ${kind}, ${id})`.execute(app.ctx.db);
    for (const [n, track, album] of [[1, ids.t1, ids.x], [2, ids.t2, ids.y], [3, 'NO-SUCH-TRACK', ids.y]]) await sql`insert into test_plays values (${n}, ${track}, ${album})`.execute(app.ctx.db);
  });
  after(async () => {
    undo.forEach((u) => u());
    await app.close();
  });

  const favorites = async () => (await sql<{ username: string; kind: string; canonical_id: string }>`select * from test_favorites order by username, kind, canonical_id`.execute(app.ctx.db)).rows;
  const plays = async () => (await sql<{ id: number; track_id: string | null; album_id: string | null }>`select * from test_plays order by id`.execute(app.ctx.db)).rows;
  const migrate = async () => {
    const res = await admin.post('/admin/canonical/migrate');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ name: 'canonical.migrate', status: 'running' });
    const task = await pollTask(admin, res.body.task_id);
    expect(task.status, JSON.stringify(task)).to.equal('completed');
    return task;
  };

  it('given user rows on merged-away and unknown ids, when migrate runs, then every row ends on the end of its chain, duplicates and unknown user actions go', async () => {
    const task = await migrate();
    const sorted = (rows: string[][]) => rows.map((r) => r.join(' ')).sort();
    expect(sorted((await favorites()).map((f) => [f.username, f.kind, f.canonical_id]))).to.deep.equal(
      sorted([['u1', 'artist', ids.c!], ['u2', 'artist', ids.c!], ['u3', 'artist', ids.c!], ['u1', 'album', ids.y!]]),
    );
    expect(await plays()).to.deep.equal([
      { id: 1, track_id: ids.t2, album_id: ids.y },
      { id: 2, track_id: ids.t2, album_id: ids.y },
      { id: 3, track_id: null, album_id: ids.y },
    ]);
    expect(task.summary).to.deep.include({ rows_rekeyed: 4, duplicates_removed: 2, unresolvable_deleted: 1 });
  });

  it('when it runs again, then nothing changes: no row moves, no entity is added', async () => {
    const [favoritesBefore, playsBefore, stats] = [await favorites(), await plays(), (await admin.get('/admin/canonical/stats')).body];
    const task = await migrate();
    expect(task.summary).to.deep.include({ rows_rekeyed: 0, duplicates_removed: 0, unresolvable_deleted: 0 });
    expect(await favorites()).to.deep.equal(favoritesBefore);
    expect(await plays()).to.deep.equal(playsBefore);
    expect((await admin.get('/admin/canonical/stats')).body).to.deep.equal(stats);
  });

  it('is for admins', async () => {
    expect((await app.client().post('/admin/canonical/migrate')).status).to.equal(401);
    expect((await (await signedInAs(app, 'viewer')).client.post('/admin/canonical/migrate')).status).to.equal(403);
  });
});
