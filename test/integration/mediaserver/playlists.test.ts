import { expect } from 'chai';
import type { ApiClient } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { pollTask } from '../tasks/test-tasks.ts';
import { type MediaserverWorld, SERVER, startWorld } from './world.ts';

describe('mediaserver: playlists with the user’s own token', () => {
  let world: MediaserverWorld;
  let user: { client: ApiClient; username: string; token: string };
  let mix: string;
  let clips: string;
  before(async () => {
    world = await startWorld();
    await world.sync();
    user = await world.linkedUser();
    mix = world.fake.media.playlists.create(user.token, 'Road Mix', 'audio', ['158', '160']);
    clips = world.fake.media.playlists.create(user.token, 'Clips', 'video', [], { composite: false });
  });
  after(() => world.close());

  async function syncOf(client: ApiClient) {
    const res = await client.post('/mediaserver/me/playlists/sync');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return pollTask(world.admin, res.body.task_id, undefined, 60_000);
  }

  it('given a user who has not linked, when playlists are synced, then 412', async () => {
    const { client } = await signedInAs(world.app, 'viewer');
    expect((await client.post('/mediaserver/me/playlists/sync')).status).to.equal(412);
  });

  describe('given a synced user', () => {
    before(async () => {
      const task = await syncOf(user.client);
      expect(task.status, task.error ?? '').to.equal('completed');
      expect(task.summary).to.include({ playlists: 2, items: 2 });
    });

    it('when the list is read, then rows come without items and filter by type', async () => {
      const all = await user.client.get('/mediaserver/me/playlists');
      expect(all.status).to.equal(200);
      expect(all.body.map((p: any) => p.playlist_id)).to.have.members([`${SERVER}::${mix}`, `${SERVER}::${clips}`]);
      expect(all.body.every((p: any) => !('items' in p))).to.equal(true);
      const audio = await user.client.get('/mediaserver/me/playlists?playlist_type=audio');
      expect(audio.body.map((p: any) => p.title)).to.deep.equal(['Road Mix']);
      const reads = world.fake.requestsTo('/playlists').filter((r) => !r.path.includes('/composite/'));
      expect(reads.some((r) => r.headers['x-plex-token'] === user.token)).to.equal(true);
      expect(reads.some((r) => r.headers['x-plex-token'] === world.fake.adminToken)).to.equal(false);
    });

    it('when one is opened, then its audio items carry their canonical track ids', async () => {
      const res = await user.client.get(`/mediaserver/me/playlists/${SERVER}::${mix}`);
      expect(res.status).to.equal(200);
      expect(res.body.items.map((i: any) => i.canonical_track_id)).to.deep.equal([await world.trackId('158'), await world.trackId('160')]);
      expect(res.body.items[0]).to.include({ kind: 'track', title: 'Try It Out (Neon mix)', artist_name: 'Skrillex' });
    });

    it('when its cover is read, then the image comes back; a playlist without a composite is 404', async () => {
      const cover = await world.bytes(user.client, `/mediaserver/me/playlists/${SERVER}::${mix}/cover`);
      expect(cover.status).to.equal(200);
      expect(cover.headers.get('content-type')).to.contain('image/');
      const fetched = world.fake.requestsTo(`/playlists/${mix}/composite/`).map((r) => r.headers['x-plex-token']);
      expect(fetched, 'the owner’s token, not the admin’s').to.deep.equal([user.token]);
      expect((await world.bytes(user.client, `/mediaserver/me/playlists/${SERVER}::${clips}/cover`)).status).to.equal(404);
    });

    it('when another user asks for it, then 404', async () => {
      const other = await world.linkedUser();
      expect((await other.client.get(`/mediaserver/me/playlists/${SERVER}::${mix}`)).status).to.equal(404);
      expect((await world.bytes(other.client, `/mediaserver/me/playlists/${SERVER}::${mix}/cover`)).status).to.equal(404);
      expect((await other.client.post(`/mediaserver/me/playlists/${SERVER}::${mix}/refresh`)).status).to.equal(404);
    });

    it('when it changes on the server and is refreshed, then its items are fetched again', async () => {
      world.fake.media.playlists.add(mix, ['159']);
      const res = await user.client.post(`/mediaserver/me/playlists/${SERVER}::${mix}/refresh`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ playlist_id: `${SERVER}::${mix}`, items: 3 });
      const detail = await user.client.get(`/mediaserver/me/playlists/${SERVER}::${mix}`);
      expect(detail.body.items.map((i: any) => i.rating_key)).to.deep.equal(['158', '160', '159']);
    });
  });

  it('given one user whose token was revoked, when the admin syncs every user, then the others still sync', async () => {
    const revoked = await world.linkedUser();
    const fine = await world.linkedUser();
    world.fake.media.playlists.create(fine.token, 'Fine Tunes', 'audio', ['158']);
    world.fake.revoke(revoked.token);
    const res = await world.admin.post('/mediaserver/admin/playlists/sync-all');
    expect(res.status).to.equal(200);
    const task = await pollTask(world.admin, res.body.task_id, undefined, 60_000);
    expect(task.status, task.error ?? '').to.equal('completed');
    const summary = task.summary as any;
    expect(summary.failed).to.equal(1);
    const failed = summary.results.find((r: any) => r.username === revoked.username);
    expect(failed.error).to.be.a('string').and.not.contain(revoked.token);
    expect((await fine.client.get('/mediaserver/me/playlists')).body.map((p: any) => p.title)).to.deep.equal(['Fine Tunes']);
  });
});
