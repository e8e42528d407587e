import { expect } from 'chai';
import { unitOfWork } from '../../../infra/projections/read-models.ts';
import { newId } from '../../../shared/ids.ts';
import { radioStream } from '../../../shared/streams.ts';
import { guessPick } from '../../../command/radio/pick-guess.ts';
import { foldedSession } from '../../../command/radio/session-log.ts';
import { type ApiClient, type TestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { DAY, givenScrobbles, nowUts } from '../../support/scrobbles.ts';
import { type RadioLibrary, givenRadioLibrary } from './radio-library.ts';

/** Radio sessions over a playable library and a scrobbler fake: start, one active, resume, advance, feedback. */
describe('radio: sessions', function () {
  this.timeout(60_000);
  let library: RadioLibrary;
  let app: TestApp;
  const ids = () => library.ids;

  before(async function () {
    this.timeout(120_000);
    library = await givenRadioLibrary();
    app = library.app;
  });
  after(async () => {
    await app?.close();
    await library?.scrobbler.close();
  });

  const listener = async () => (await signedInAs(app, 'viewer')).client;
  const start = (client: ApiClient, seed_kind: string, seed_id: string) => client.post('/radio/sessions', { seed_kind, seed_id });
  const advance = (client: ApiClient, id: string, previous_outcome = 'played') => client.post(`/radio/sessions/${id}/advance`, { previous_outcome });
  const artistOf = (trackId: string) => Object.entries(ids()).find(([, v]) => v === trackId)?.[0];

  /** A session started as the radio did before the listener's stream chose the active one. */
  async function givenLegacyOpenSession(username: string): Promise<string> {
    const sessionId = newId();
    const base = { session_id: sessionId, username, at: new Date().toISOString() };
    const entry = { track_id: ids()['New Life']!, artist_id: ids().dm!, artist_name: 'Depeche Mode', same_artist: 'Depeche Mode', same_album: null, similar_artist: null, similar_track: null, shared: [] };
    const events = [
      { type: 'RadioSessionStarted', data: { ...base, seed_kind: 'artist', seed_id: ids().dm!, seed_label: 'Depeche Mode', pool_size: 1, pool: [entry] } },
      { type: 'RadioTrackPicked', data: { ...base, position: 1, canonical_track_id: entry.track_id, artist_id: entry.artist_id, score: 0.5, reason: 'by Depeche Mode' } },
    ];
    await unitOfWork(app.ctx.readModels, () => app.ctx.store.append(radioStream(sessionId), events, 'no_stream'), { reactions: false });
    return sessionId;
  }

  describe('POST /radio/sessions', () => {
    it('given a mood only three playable tracks carry, when a session starts from it, then 422 naming the seed and the pool size', async () => {
      const res = await start(await listener(), 'mood', 'Rare Mood');
      expect(res.status).to.equal(422);
      expect(res.body.detail).to.include('"rare mood"').and.include(' 3 playable tracks');
    });

    it('given an unknown artist id, when a session starts from it, then 404', async () => {
      expect((await start(await listener(), 'artist', '01JUNKNOWNARTIST0000000000')).status).to.equal(404);
    });

    it('given an artist seed, then the first track is picked at once with its reason, from the similar tracks the scrobbler lists', async () => {
      const res = await start(await listener(), 'artist', ids().dm!);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ seed_kind: 'artist', seed_id: ids().dm!, seed_label: 'Depeche Mode', active: true, ended_at: null, pool_size: 13, track_count: 1 });
      expect(res.body.current).to.include({ position: 1, canonical_track_id: ids()['Dreaming of Me']!, title: 'Dreaming of Me', artist_name: 'Depeche Mode' });
      expect(res.body.current.reason).to.match(/^similar to .+ \(scrobbler 1\.00\) · by Depeche Mode · tag: synth-pop$/);
    });
  });

  describe('advance', () => {
    it('when advanced, then the outcome is logged, no artist plays twice in a row, no track twice, and every pick has a reason', async () => {
      const client = await listener();
      const id = (await start(client, 'artist', ids().dm!)).body.session_id;
      let session;
      for (let i = 0; i < 12; i++) session = (await advance(client, id, i === 0 ? 'skipped' : 'played')).body;
      expect(session.track_count).to.equal(13);
      expect(session).to.not.have.property('tracks');
      session = (await client.get(`/radio/sessions/${id}`)).body;
      const tracks = session.tracks as { canonical_track_id: string; artist_id: string; reason: string; outcome: string | null }[];
      expect(new Set(tracks.map((t) => t.canonical_track_id)).size).to.equal(13);
      expect(tracks[0]!.outcome).to.equal('skipped');
      expect(tracks.at(-1)!.outcome).to.equal(null);
      for (const t of tracks) expect(t.reason).to.be.a('string').and.not.equal('');
      for (let i = 1; i < 4; i++) expect(tracks[i]!.artist_id).to.not.equal(tracks[i - 1]!.artist_id);
      expect(tracks[1]!.reason).to.include('similar to Depeche Mode (scrobbler 0.51)');
    });

    it('the answer of an advance is the session as GET shows it, with the new track current', async () => {
      const client = await listener();
      const id = (await start(client, 'artist', ids().dm!)).body.session_id;
      await advance(client, id, 'liked');
      const answer = (await advance(client, id, 'skipped')).body;
      const { tracks, ...shown } = (await client.get(`/radio/sessions/${id}`)).body;
      expect(answer).to.deep.equal(shown);
      expect(answer.current).to.deep.equal(tracks.at(-1));
      expect(answer.current).to.include({ position: 3, outcome: null, feedback: null });
    });

    it('given a play since the last pick that turns the next pick away from what the last facts would pick, then the answer shows the track picked', async () => {
      const { client, username } = await signedInAs(app, 'viewer');
      const id = (await start(client, 'artist', ids().dm!)).body.session_id;
      // The advance reads the card of this guess with its facts; a play today sinks it.
      const guessed = guessPick(app.ctx.store, id, await foldedSession(app.ctx.store, id), 'played', username, new Date());
      expect(guessed).to.be.a('string');
      await givenScrobbles(app, username, [{ uts: nowUts() - 60, artist: 'Depeche Mode', track: artistOf(guessed!)!, trackId: guessed! }]);
      const answer = (await advance(client, id)).body;
      expect(answer.current.canonical_track_id).to.not.equal(guessed);
      const { tracks, ...shown } = (await client.get(`/radio/sessions/${id}`)).body;
      expect(answer).to.deep.equal(shown);
      expect(answer.current).to.deep.equal(tracks.at(-1));
    });

    it('given the session ended or resumed by another process (the log moved past what this one folded), when advanced, then the log decides', async () => {
      const { client, username } = await signedInAs(app, 'viewer');
      const id = (await start(client, 'artist', ids().dm!)).body.session_id;
      await advance(client, id);
      const elsewhere = async (type: 'RadioSessionEnded' | 'RadioSessionResumed', extra: object) => {
        const data = { session_id: id, username, at: new Date().toISOString(), ...extra };
        await unitOfWork(app.ctx.readModels, () => app.ctx.store.append(radioStream(id), [{ type, data }], 'any'), { reactions: false });
      };
      await elsewhere('RadioSessionEnded', { cause: 'ended' });
      expect((await advance(client, id)).status).to.equal(409);
      await elsewhere('RadioSessionResumed', {});
      const resumed = await advance(client, id);
      expect(resumed.status).to.equal(200);
      expect(resumed.body).to.include({ active: true, track_count: 3 });
    });

    it('given an ended session, when advanced, then 409', async () => {
      const client = await listener();
      const id = (await start(client, 'artist', ids().dm!)).body.session_id;
      expect((await client.delete(`/radio/sessions/${id}`)).body.ended_at).to.be.a('string');
      expect((await advance(client, id)).status).to.equal(409);
    });
  });

  describe('one active session per user', () => {
    it('when a second session starts, then the first ends; resuming the first ends the second and keeps its tracks', async () => {
      const client = await listener();
      const first = (await start(client, 'artist', ids().dm!)).body;
      await advance(client, first.session_id);
      const second = (await start(client, 'genre', 'synth-pop')).body;
      expect(second.current.reason).to.include('genre: synth-pop');
      expect((await client.get(`/radio/sessions/${first.session_id}`)).body).to.include({ active: false });
      expect((await client.get('/radio/sessions/active')).body.session_id).to.equal(second.session_id);
      const recent = await client.get('/radio/sessions/recent');
      expect(recent.body.map((s: { session_id: string }) => s.session_id)).to.deep.equal([second.session_id, first.session_id]);

      const resumed = await client.post(`/radio/sessions/${first.session_id}/resume`);
      expect(resumed.status).to.equal(200);
      expect(resumed.body).to.include({ active: true, ended_at: null, track_count: 2, pool_size: 13 });
      expect((await client.get(`/radio/sessions/${second.session_id}`)).body.ended_at).to.be.a('string');
      expect((await client.get('/radio/sessions/active')).body.session_id).to.equal(first.session_id);
      expect((await advance(client, first.session_id)).body.track_count).to.equal(3);
    });

    const activeOnes = async (client: ApiClient) => (await client.get('/radio/sessions/recent?limit=200')).body.filter((s: { active: boolean }) => s.active).map((s: { session_id: string }) => s.session_id);

    it('when three sessions start at the same time, then one of them is the active one and the others have ended', async () => {
      const client = await listener();
      expect(await activeOnes(client)).to.deep.equal([]);
      const answers = await Promise.all([1, 2, 3].map(() => start(client, 'genre', 'synth-pop')));
      expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200]);
      const active = await activeOnes(client);
      expect(active).to.have.length(1);
      expect(answers.map((a) => a.body.session_id)).to.include(active[0]);
      expect((await client.get('/radio/sessions/active')).body.session_id).to.equal(active[0]);
    });

    it('when a session is resumed while another starts and a third resumes, then exactly one is active', async () => {
      const client = await listener();
      const first = (await start(client, 'artist', ids().dm!)).body.session_id;
      const second = (await start(client, 'artist', ids().dm!)).body.session_id;
      const answers = await Promise.all([client.post(`/radio/sessions/${first}/resume`), start(client, 'artist', ids().dm!), client.post(`/radio/sessions/${second}/resume`)]);
      expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200]);
      expect(await activeOnes(client)).to.have.length(1);
    });

    it('given a session open from before the pointer kept the active one, when another starts, then the old one ends', async () => {
      const { client, username } = await signedInAs(app, 'viewer');
      const legacy = await givenLegacyOpenSession(username);
      const next = (await start(client, 'artist', ids().dm!)).body.session_id;
      expect(await activeOnes(client)).to.deep.equal([next]);
      expect((await client.get(`/radio/sessions/${legacy}`)).body.active).to.equal(false);
    });

    it('given no session, then active is null; after DELETE the session stays in recent with ended_at set', async () => {
      const client = await listener();
      expect((await client.get('/radio/sessions/active')).body).to.equal(null);
      const id = (await start(client, 'artist', ids().dm!)).body.session_id;
      await client.delete(`/radio/sessions/${id}`);
      expect((await client.get('/radio/sessions/active')).body).to.equal(null);
      const [row] = (await client.get('/radio/sessions/recent?limit=1')).body;
      expect(row).to.include({ session_id: id, active: false });
      expect(row.ended_at).to.be.a('string');
    });

    it("given another user's session, then get, advance, feedback, resume and delete are 404", async () => {
      const id = (await start(await listener(), 'artist', ids().dm!)).body.session_id;
      const other = await listener();
      expect((await other.get(`/radio/sessions/${id}`)).status).to.equal(404);
      expect((await advance(other, id)).status).to.equal(404);
      expect((await other.post(`/radio/sessions/${id}/feedback`, { canonical_track_id: ids()['New Life']!, signal: 'down' })).status).to.equal(404);
      expect((await other.post(`/radio/sessions/${id}/resume`)).status).to.equal(404);
      expect((await other.delete(`/radio/sessions/${id}`)).status).to.equal(404);
    });
  });

  describe('feedback and cross-session bias', () => {
    it('given a thumbs-down on an INXS track in one session, then INXS sinks in the next session, and favorites are untouched', async () => {
      const baseline = await listener();
      const plain = (await start(baseline, 'artist', ids().dm!)).body.session_id;
      expect(artistOf((await advance(baseline, plain)).body.current.artist_id)).to.equal('inxs');

      const client = await listener();
      const first = (await start(client, 'artist', ids().dm!)).body.session_id;
      const thumb = await client.post(`/radio/sessions/${first}/feedback`, { canonical_track_id: ids()['Need You Tonight']!, signal: 'down' });
      expect(thumb.body).to.deep.equal({ session_id: first, canonical_track_id: ids()['Need You Tonight']!, signal: 'down' });
      const next = (await start(client, 'artist', ids().dm!)).body.session_id;
      const second = (await advance(client, next)).body.current;
      expect(artistOf(second.artist_id)).to.equal('yazoo');
      expect((await client.get('/me/favorites/tracks')).body.items ?? (await client.get('/me/favorites/tracks')).body).to.have.length(0);
    });

    it('given a disliked outcome in one session, then the next session names the thumbs-down in its reasons', async () => {
      const client = await listener();
      const first = (await start(client, 'artist', ids().dm!)).body.session_id;
      await advance(client, first);
      const disliked = (await advance(client, first, 'played')).body.current;
      await advance(client, first, 'disliked');
      const next = (await start(client, 'artist', ids().dm!)).body.session_id;
      let tracks = [];
      for (let i = 0; i < 12; i++) await advance(client, next);
      tracks = (await client.get(`/radio/sessions/${next}`)).body.tracks;
      const again = tracks.find((t: { canonical_track_id: string }) => t.canonical_track_id === disliked.canonical_track_id);
      expect(again.reason).to.include('you gave it a thumbs-down');
    });
  });

  describe('recency from the scrobble mirror', () => {
    it('given the first pick was last played 41 days ago, then its reason says so', async () => {
      const { client, username } = await signedInAs(app, 'viewer');
      await givenScrobbles(app, username, [{ uts: nowUts() - 41 * DAY - 60, artist: 'Depeche Mode', track: 'Dreaming of Me', trackId: ids()['Dreaming of Me']! }]);
      const res = await start(client, 'artist', ids().dm!);
      expect(res.body.current.canonical_track_id).to.equal(ids()['Dreaming of Me']!);
      expect(res.body.current.reason).to.include('not played for 41 days');
    });
  });
});
