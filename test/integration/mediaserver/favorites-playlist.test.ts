import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import type { ApiClient } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { startTestApp } from '../../support/api.ts';
import { freshDatabase } from '../../support/database.ts';
import { signedInAdmin } from '../../support/given.ts';
import { mediaserverEnv, startMediaserverFake } from '../../fakes/mediaserver/server.ts';
import { pollTask } from '../tasks/test-tasks.ts';
import { type MediaserverWorld, SERVER, startWorld } from './world.ts';

describe('mediaserver: the favorites playlist', () => {
  let world: MediaserverWorld;
  let user: { client: ApiClient; username: string; token: string };
  let ids: Record<string, string>;
  before(async () => {
    world = await startWorld();
    await world.sync();
    user = await world.linkedUser();
    ids = { neon: await world.trackId('158'), harder: await world.trackId('159'), putEmUp: await world.trackId('160') };
  });
  after(() => world.close());

  const favorites = () => world.fake.media.playlists.ownedBy(user.token).filter((p) => p.title === `${user.username} - Favorites`);
  const keysInPlaylist = () => favorites()[0]?.items.map((i) => i.ratingKey) ?? [];
  const favorite = (id: string) => user.client.post('/me/favorites/tracks', { canonical_id: id });
  const unfavorite = (id: string) => user.client.delete(`/me/favorites/tracks/${id}`);

  it('given a user who has not linked, when the favorites playlist is synced, then 412', async () => {
    const { client } = await signedInAs(world.app, 'viewer');
    expect((await client.post('/mediaserver/me/favorites-playlist/sync')).status).to.equal(412);
  });

  it('given favorites made before any sync, then nothing follows them into a playlist', async () => {
    expect((await favorite(ids.neon!)).status).to.equal(200);
    expect(favorites()).to.have.length(0);
  });

  it('when the favorites playlist is synced, then it holds the favorite tracks and the preference is on', async () => {
    expect((await favorite(ids.harder!)).status).to.equal(200);
    const res = await user.client.post('/mediaserver/me/favorites-playlist/sync');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ title: `${user.username} - Favorites`, created: true, added: 2, total: 2, sync_enabled: true });
    expect(keysInPlaylist()).to.have.members(['158', '159']);
    expect((await user.client.get('/auth/me')).body.preferences.mediaserver_favorites_sync_enabled).to.equal(true);
    const listed = await user.client.get('/mediaserver/me/playlists');
    expect(listed.body.map((p: any) => p.title)).to.include(`${user.username} - Favorites`);
    const creates = world.fake.requestsTo('/playlists').filter((r) => r.method === 'POST');
    expect(creates.every((r) => r.headers['x-plex-token'] === user.token)).to.equal(true);
  });

  it('when a track is favorited and another unfavorited, then the playlist follows before each call answers', async () => {
    expect((await favorite(ids.putEmUp!)).status).to.equal(200);
    expect(keysInPlaylist()).to.include('160');
    expect((await unfavorite(ids.neon!)).status).to.equal(200);
    expect(keysInPlaylist()).to.have.members(['159', '160']);
  });

  it('when the same favorite is added twice, then the playlist holds it once', async () => {
    await favorite(ids.putEmUp!);
    expect(keysInPlaylist().filter((k) => k === '160')).to.have.length(1);
  });

  it('when it is synced with force_recreate, then a new playlist with the same tracks replaces the old one', async () => {
    const before = favorites()[0]!.ratingKey;
    const res = await user.client.post('/mediaserver/me/favorites-playlist/sync?force_recreate=true');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ created: true, total: 2 });
    expect(favorites()).to.have.length(1);
    expect(favorites()[0]!.ratingKey).not.to.equal(before);
    expect(keysInPlaylist()).to.have.members(['159', '160']);
  });
});

describe('mediaserver: the favorites playlist across a restart', () => {
  it('given a favorite made while no worker ran, when the service starts again, then the reactor resumes from its checkpoint and follows it', async () => {
    const fake = await startMediaserverFake();
    const database = await freshDatabase();
    // The same keys across restarts, as one deployment keeps them: stored hashes and tokens stay readable.
    const env = { ...mediaserverEnv(fake), SECRET_KEY: 'restart-test-secret-key-0123456789abcdef', JWT_SECRET: 'restart-test-jwt-secret-0123456789' };
    let app = await startTestApp(env, database, { keepDatabase: true });
    const { username, password } = await signedInAs(app, 'viewer');
    const login = async () => {
      const client = app.client();
      expect((await client.post('/auth/login', { username, password })).status).to.equal(200);
      return client;
    };
    try {
      const admin = await signedInAdmin(app);
      const started = await admin.post('/mediaserver/admin/libraries/5/sync');
      expect((await pollTask(admin, started.body.task_id, undefined, 60_000)).status).to.equal('completed');
      let client = await login();
      await client.post('/mediaserver/me/auth/start');
      const token = fake.linkPin();
      expect((await client.post('/mediaserver/me/auth/finish')).body.status).to.equal('completed');
      const trackId = (await admin.get(`/tracks/resolve?mediaserver_server=${SERVER}&mediaserver_rating_key=160`)).body.id as string;
      expect((await client.post('/mediaserver/me/favorites-playlist/sync')).status).to.equal(200);
      const keys = () => fake.media.playlists.ownedBy(token).flatMap((p) => p.items.map((i) => i.ratingKey));
      await app.close();

      app = await startTestApp({ ...env, ROLES: 'api,projector' }, database, { keepDatabase: true });
      client = await login();
      expect((await client.post('/me/favorites/tracks', { canonical_id: trackId })).status).to.equal(200);
      await sleep(300);
      expect(keys()).to.deep.equal([]);
      await app.close();

      app = await startTestApp(env, database, { keepDatabase: true });
      const deadline = Date.now() + 10_000;
      while (!keys().includes('160') && Date.now() < deadline) await sleep(50);
      expect(keys()).to.deep.equal(['160']);
    } finally {
      await app.close();
      await database.close();
      await fake.close();
    }
  });
});
