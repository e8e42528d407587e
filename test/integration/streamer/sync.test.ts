import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { categoryOf } from '../../../shared/streams.ts';
import { type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { pollUntil } from '../../support/scrobbler.ts';
import { linkStreamer, smallLibrary, syncAndWait } from '../../support/streamer.ts';
import { type StreamerFake, startStreamerFake } from '../../fakes/streamer/server.ts';

describe('streamer sync: POST /streamer/me/sync', () => {
  let fake: StreamerFake;
  let app: TestApp;

  before(async () => {
    fake = await startStreamerFake();
    fake.state.maxPage = 2;
    app = await startTestApp(fake.env);
  });
  after(async () => {
    await app.close();
    await fake.close();
  });

  const domainEvents = async () => (await app.ctx.store.readAll()).filter((e) => categoryOf(e.streamId) !== 'task');

  it('given no link, then 412', async () => {
    const { client } = await signedInAs(app, 'viewer');
    expect((await client.post('/streamer/me/sync')).status).to.equal(412);
  });

  it('given a linked account, then every phase is mirrored page by page and reconciled, ISRC first', async () => {
    smallLibrary(fake, 'ann-account');
    const known = await reconcile(app.ctx, { source: 'catalog', kind: 'track', external_id: '999', facts: { name: 'Another Title', isrc: 'USTEST000001' } });
    const { client, username } = await signedInAs(app, 'viewer');
    await linkStreamer(client, fake, 'ann-account');
    const { start, task } = await syncAndWait(client, app);
    expect(start).to.include({ name: 'streamer.sync', status: 'running', resumed_from_phase: null });
    expect(task.status, task.error).to.equal('completed');
    expect(task.summary).to.include({ account_id: 'ann-account', saved_tracks: 5, saved_albums: 2, followed_artists: 3, playlists: 2, playlist_items: 5, recently_played: 2 });
    // Offset pages follow `next`; followed artists page by cursor.
    expect(fake.requestsTo('/v1/me/tracks').map((r) => r.query.offset ?? '0')).to.deep.equal(['0', '2', '4']);
    expect(fake.requestsTo('/v1/me/following').map((r) => r.query.after ?? null)).to.have.length(2);
    const rows = await app.ctx.db.selectFrom('streamer_saved_tracks').selectAll().where('account_id', '=', 'ann-account').orderBy('added_at').execute();
    expect(rows).to.have.length(5);
    expect(rows[0]!.canonical_track_id).to.equal(known);
    for (const row of rows) expect(row.canonical_track_id).to.be.a('string');
    const album = await app.ctx.db.selectFrom('canonical_docs').selectAll().where('kind', '=', 'album').where('id', '=', (await app.ctx.db.selectFrom('streamer_saved_albums').select('canonical_album_id').where('name', '=', 'Hot').executeTakeFirstOrThrow()).canonical_album_id!).executeTakeFirst();
    expect(album).to.not.equal(undefined);
    const me = await client.get('/streamer/me');
    expect(me.body.link.last_sync_at).to.be.a('string');
    expect(username).to.be.a('string');
  });

  it('given an unchanged account, when it syncs again, then nothing new is appended', async () => {
    smallLibrary(fake, 'bob-account');
    const { client } = await signedInAs(app, 'viewer');
    await linkStreamer(client, fake, 'bob-account');
    expect((await syncAndWait(client, app)).task.status).to.equal('completed');
    const before = (await domainEvents()).length;
    const pagesBefore = fake.requestsTo('/v1/playlists/').length;
    const again = await syncAndWait(client, app);
    expect(again.task.status).to.equal('completed');
    expect((await domainEvents()).slice(before).map((e) => [e.type, JSON.stringify(e.data).slice(0, 300)])).to.deep.equal([]);
    // Unchanged snapshots: the playlists' items are not read again.
    expect(fake.requestsTo('/v1/playlists/').length).to.equal(pagesBefore);
  });

  it('given a track unsaved and a playlist gone upstream, when it syncs again, then the mirror follows', async () => {
    const { account } = smallLibrary(fake, 'cy-account');
    const { client } = await signedInAs(app, 'viewer');
    await linkStreamer(client, fake, 'cy-account');
    await syncAndWait(client, app);
    account.savedTracks.pop();
    account.playlists.pop();
    expect((await syncAndWait(client, app)).task.status).to.equal('completed');
    const tracks = await app.ctx.db.selectFrom('streamer_saved_tracks').select('track_id').where('account_id', '=', 'cy-account').execute();
    const playlists = await app.ctx.db.selectFrom('streamer_playlists').select('name').where('account_id', '=', 'cy-account').execute();
    expect(tracks).to.have.length(4);
    expect(playlists.map((p) => p.name)).to.deep.equal(['Mine']);
  });

  it('honours Retry-After on 429 and retries a 5xx', async () => {
    smallLibrary(fake, 'dee-account');
    const { client } = await signedInAs(app, 'viewer');
    await linkStreamer(client, fake, 'dee-account');
    fake.state.failures.push({ status: 429, retryAfter: 1 }, { status: 503 });
    const t0 = Date.now();
    const { task } = await syncAndWait(client, app);
    expect(task.status, task.error).to.equal('completed');
    expect(Date.now() - t0).to.be.greaterThan(1000);
    expect(task.summary.saved_tracks).to.equal(5);
  });

  it('refreshes an expired token, writes back a rotated refresh token, and uses it next time', async () => {
    smallLibrary(fake, 'eve-account');
    const { client } = await signedInAs(app, 'viewer');
    await linkStreamer(client, fake, 'eve-account');
    fake.state.rotateRefreshTokens = true;
    try {
      fake.state.expireAccessTokens();
      expect((await syncAndWait(client, app)).task.status).to.equal('completed');
      fake.state.expireAccessTokens();
      expect((await syncAndWait(client, app)).task.status).to.equal('completed');
      const refreshes = fake.requestsTo('/api/token').filter((r) => (r.body as Record<string, string>).grant_type === 'refresh_token');
      expect(refreshes.length).to.be.greaterThanOrEqual(2);
      expect((refreshes.at(-1)!.body as Record<string, string>).refresh_token).to.not.equal((refreshes.at(-2)!.body as Record<string, string>).refresh_token);
    } finally {
      fake.state.rotateRefreshTokens = false;
    }
  });

  it('refreshes a token about to expire before calling the API with it', async () => {
    smallLibrary(fake, 'hal-account');
    const { client } = await signedInAs(app, 'viewer');
    await linkStreamer(client, fake, 'hal-account');
    const linked = (await app.ctx.store.readAll()).filter((e) => e.type === 'StreamerLinked' && (e.data as { account_id: string }).account_id === 'hal-account').at(-1)!;
    const credentialId = (linked.data as { credential_id: string }).credential_id;
    const stored = JSON.parse((await app.ctx.auth.credentials.get(credentialId))!);
    await app.ctx.auth.credentials.replace(credentialId, JSON.stringify({ ...stored, expires_at: Date.now() + 30_000 }));
    fake.requests.splice(0);
    expect((await syncAndWait(client, app)).task.status).to.equal('completed');
    const first = fake.requests.find((r) => r.path === '/api/token' || r.path.startsWith('/v1/'))!;
    expect(first.path).to.equal('/api/token');
    expect(first.body).to.include({ grant_type: 'refresh_token', refresh_token: stored.refresh_token });
    expect(fake.requests.filter((r) => r.path.startsWith('/v1/') && r.headers.authorization === `Bearer ${stored.access_token}`)).to.have.length(0);
  });

  it('given the refresh token was revoked, then the sync fails with invalid_grant and the link needs relinking', async () => {
    smallLibrary(fake, 'fay-account');
    const { client } = await signedInAs(app, 'viewer');
    await linkStreamer(client, fake, 'fay-account');
    fake.state.revokeRefreshTokens();
    fake.state.expireAccessTokens();
    const { task } = await syncAndWait(client, app);
    expect(task.status).to.equal('failed');
    expect(task.error).to.include('invalid_grant');
    const me = await client.get('/streamer/me');
    expect(me.body.link).to.include({ state: 'needs_relink', account_id: 'fay-account' });
    expect((await client.post('/streamer/me/sync')).status).to.equal(412);
    await linkStreamer(client, fake, 'fay-account');
    expect((await client.get('/streamer/me')).body.link.state).to.equal('linked');
  });

  it('given a cancel during the saved tracks, then it stops at the next page, and the next sync continues there', async () => {
    smallLibrary(fake, 'gus-account');
    const { client } = await signedInAs(app, 'viewer');
    await linkStreamer(client, fake, 'gus-account');
    let taskIdKnown!: (id: string) => void;
    const started = new Promise<string>((resolve) => (taskIdKnown = resolve));
    // The page of saved tracks is answered once the cancel has reached the sync: it stops at its next page, whatever the timing.
    fake.state.onPage = async (path) => {
      if (path === '/me/tracks') await app.ctx.tasks.cancel(await started, null);
    };
    let taskId: string;
    try {
      const start = await client.post('/streamer/me/sync');
      taskId = start.body.task_id;
      taskIdKnown(taskId);
      await app.ctx.tasks.idle();
    } finally {
      fake.state.onPage = () => undefined;
    }
    const cancelled = await pollUntil(async () => (await client.get(`/me/tasks/${taskId}`)).body, (t) => t.status !== undefined && t.status !== 'running');
    expect(cancelled.status).to.equal('cancelled');
    expect(cancelled.summary.cursor.phase).to.equal('saved_tracks');
    fake.requests.splice(0);
    const { start, task } = await syncAndWait(client, app);
    expect(start.resumed_from_phase).to.equal('saved_tracks');
    expect(task.status).to.equal('completed');
    expect(fake.requestsTo('/v1/me/tracks')[0]!.query.offset).to.not.equal('0');
    const rows = await app.ctx.db.selectFrom('streamer_saved_tracks').select('track_id').where('account_id', '=', 'gus-account').execute();
    expect(rows).to.have.length(5);
  });
});
