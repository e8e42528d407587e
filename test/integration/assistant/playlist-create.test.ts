import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { type ModelFake, json, startModelFake } from '../../fakes/llm/server.ts';
import type { ApiClient } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { albumSeen, artistSeen, trackSeen } from '../../support/observations.ts';
import { type MediaserverWorld, startWorld } from '../mediaserver/world.ts';

/**
 * From a proposal to a playlist on the media server with the user's own token, and what the
 * model hears while users with linked accounts, favorites and notes use the assistant.
 */
describe('assistant: creating the proposed playlist on the media server', function () {
  this.timeout(60_000);
  let model: ModelFake;
  let world: MediaserverWorld;
  let user: { client: ApiClient; username: string; token: string };
  let neighbour: { client: ApiClient; username: string; token: string };
  const tracks: Record<string, string> = {};

  before(async function () {
    this.timeout(180_000);
    model = await startModelFake();
    world = await startWorld(() => {}, model.env());
    await world.sync();
    user = await world.linkedUser();
    neighbour = await world.linkedUser();
    for (const key of ['158', '159', '160']) tracks[key] = await world.trackId(key);
    const ghost = artistSeen('scrobbler', 'ghost artist', 'Ghost Artist');
    tracks.unplayable = await reconcile(world.app.ctx, trackSeen('scrobbler', 'ghost artist::haunt', 'Haunt', ghost, albumSeen('scrobbler', 'ghost artist::spectres', 'Spectres', ghost)));
  });
  after(async () => {
    await world?.close();
    await model?.close();
  });

  const create = (client: ApiClient, body: Record<string, unknown>) => client.post('/library/playlist/create', body);
  const mine = () => world.fake.media.playlists.ownedBy(user.token);

  it('when the user has not linked the media server, then 412', async () => {
    const { client } = await signedInAs(world.app, 'viewer');
    expect((await create(client, { title: 'Nope', canonical_track_ids: [tracks['158']] })).status).to.equal(412);
  });

  it('when a proposal is created, then the playlist holds the playable tracks in order, made with the user\'s token; the rest are skipped and counted', async () => {
    world.fake.clearRequests();
    const ids = [tracks['160'], 'NOSUCHTRACK0000000000000000', tracks['158'], tracks.unplayable, tracks['160']];
    const res = await create(user.client, { title: 'Evening Mix', canonical_track_ids: ids });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.include({ title: 'Evening Mix', added: 2, skipped: 2, skipped_ids: ['NOSUCHTRACK0000000000000000', tracks.unplayable] });
    const created = mine().find((p) => p.title === 'Evening Mix')!;
    expect(res.body.playlist_id).to.equal(`fakemachine0001::${created.ratingKey}`);
    expect(created.items.map((i) => i.ratingKey)).to.deep.equal(['160', '158']);
    const writes = world.fake.requestsTo('/playlists').filter((r) => r.method === 'POST');
    expect(writes).to.have.length(1);
    expect(writes[0]!.headers['x-plex-token']).to.equal(user.token);
    const listed = await user.client.get('/mediaserver/me/playlists');
    expect(listed.body.map((p: { title: string }) => p.title), 'shown at once').to.include('Evening Mix');
  });

  it('when none of the tracks can be played, then 422 and nothing is created', async () => {
    const before = mine().length;
    const res = await create(user.client, { title: 'Ghosts', canonical_track_ids: [tracks.unplayable] });
    expect(res.status).to.equal(422);
    expect(mine()).to.have.length(before);
  });

  it('when the body is invalid, then 422', async () => {
    for (const body of [{ title: '  ', canonical_track_ids: [tracks['158']] }, { title: 'Empty', canonical_track_ids: [] }, { title: 'x'.repeat(201), canonical_track_ids: [tracks['158']] }]) {
      expect((await create(user.client, body)).status).to.equal(422);
    }
  });

  it('given a generated proposal, when it is accepted as is, then the playlist is created from it', async () => {
    model.answerNext(json({ title: 'All Three', indexes: [2, 1, 0] }));
    const proposal = await user.client.post('/library/playlist/generate', { request: 'everything', genre: null, max_tracks: 3 });
    expect(proposal.body.state).to.equal('ok');
    const res = await create(user.client, { title: proposal.body.title, canonical_track_ids: proposal.body.tracks.map((t: { id: string }) => t.id) });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ title: 'All Three', added: 3, skipped: 0 });
  });

  it("no prompt carries a token, a password, a session or another user's data", async () => {
    expect((await neighbour.client.post('/me/favorites/tracks', { canonical_id: tracks['159'] })).status).to.equal(200);
    expect((await neighbour.client.post(`/me/comments/track/${tracks['159']}`, { body: 'NEIGHBOUR-PRIVATE-NOTE' })).status).to.equal(200);
    model.clear();
    model.answerNext(
      json({ kind: 'tracks', sort: 'name', filter: 'playable', genre: null, q: null }),
      json({ seed_kind: 'artist', seed: 'nobody' }),
      json({ title: 'One', indexes: [0] }),
      json({ answer: 'Linked from the mediaserver.' }),
    );
    await user.client.get('/library/ask?q=my%20tracks');
    await user.client.get('/radio/seed-from-text?q=something');
    await user.client.post('/library/playlist/generate', { request: 'one track', max_tracks: 1 });
    const answered = await world.admin.post('/admin/ask', { question: 'Where is this track from?', entity_ref: `track:${tracks['159']}` });
    expect(answered.body.state).to.equal('ok');
    const prompts = model.prompts();
    expect(prompts).to.have.length(4);
    const secrets = [
      user.token, neighbour.token, world.fake.adminToken, model.apiKey,
      user.client.cookie('media_session')!, neighbour.client.cookie('media_session')!, world.admin.cookie('media_session')!,
      'NEIGHBOUR-PRIVATE-NOTE', user.username, neighbour.username, 'admin-password-for-tests',
    ];
    for (const secret of secrets) expect(prompts.filter((p) => p.includes(secret)), secret).to.deep.equal([]);
  });
});
