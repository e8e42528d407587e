import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { type ModelFake, json, startModelFake } from '../../fakes/llm/server.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { albumSeen, artistSeen, trackSeen } from '../../support/observations.ts';

/**
 * The library assistant against a scripted model: `GET /library/ask`, `GET /radio/seed-from-text`
 * and `POST /library/playlist/generate`, each state and each way the model can fail.
 */
describe('assistant: library ask, radio seed and playlist proposals', function () {
  this.timeout(60_000);
  let model: ModelFake;
  let app: TestApp;
  let viewer: ApiClient;
  const ids: Record<string, string> = {};

  before(async function () {
    this.timeout(120_000);
    model = await startModelFake();
    app = await startTestApp({ ...model.env(), LLM_TIMEOUT_MS: '1000' });
    viewer = (await signedInAs(app, 'viewer')).client;
    const aphex = artistSeen('mediaserver', 'mediaserver::srv::1', 'Aphex Twin');
    const daft = artistSeen('mediaserver', 'mediaserver::srv::2', 'Daft Punk');
    const saw = albumSeen('mediaserver', 'mediaserver::srv::10', 'Selected Ambient Works 85-92', aphex, { genres: ['Electronic', 'Ambient'], tags: ['Calm'] });
    const discovery = albumSeen('mediaserver', 'mediaserver::srv::11', 'Discovery', daft, { genres: ['House'], year: 2001 });
    const jazz = albumSeen('scrobbler', 'miles davis::kind of blue', 'Kind of Blue', artistSeen('scrobbler', 'miles davis', 'Miles Davis'), { genres: ['Jazz'], tags: ['Smoky'] });
    ids.aphex = await reconcile(app.ctx, aphex);
    ids.discovery = await reconcile(app.ctx, discovery);
    await reconcile(app.ctx, jazz);
    ids.xtal = await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::20', 'Xtal', aphex, saw, { disc: 1, track_number: 1, tags: ['dreamy'] }));
    ids.tha = await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::21', 'Tha', aphex, saw, { disc: 1, track_number: 2 }));
    ids.oneMoreTime = await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::30', 'One More Time', daft, discovery, { disc: 1, track_number: 1, tags: ['Upbeat'] }));
    ids.aerodynamic = await reconcile(app.ctx, trackSeen('mediaserver', 'mediaserver::srv::31', 'Aerodynamic', daft, discovery, { disc: 1, track_number: 2 }));
    await reconcile(app.ctx, trackSeen('scrobbler', 'miles davis::so what', 'So What', artistSeen('scrobbler', 'miles davis', 'Miles Davis'), jazz));
  });
  after(async () => {
    await app?.close();
    await model?.close();
  });
  beforeEach(() => model.clear());

  const ask = (q: string) => viewer.get(`/library/ask?q=${encodeURIComponent(q)}`);
  const seed = (q: string) => viewer.get(`/radio/seed-from-text?q=${encodeURIComponent(q)}`);
  const generate = (body: Record<string, unknown>) => viewer.post('/library/playlist/generate', body);
  const system = (n = 0) => model.chats()[n]!.messages.find((m) => m.role === 'system')!.content;

  describe('GET /library/ask', () => {
    it('when the model answers a query, then the answer is that query, ready to run on the library list as is', async () => {
      model.answerNext(json({ kind: 'albums', sort: 'name', filter: 'playable', genre: 'Electronic', q: null }));
      const res = await ask('my electronic records I can play, by name');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ state: 'ok', query: { kind: 'albums', sort: 'name', filter: 'playable', genre: 'electronic', q: null } });
      const { kind, ...query } = res.body.query;
      const page = await viewer.get(`/library/${kind}?${new URLSearchParams(Object.entries(query).filter(([, v]) => v !== null) as [string, string][])}`);
      expect(page.status).to.equal(200);
      expect(page.body.items.map((r: { title: string }) => r.title)).to.deep.equal(['Selected Ambient Works 85-92']);
    });

    it('sends one chat completion with the key, the model, a JSON-object response format, the vocabulary and the genres', async () => {
      model.answerNext(json({ kind: 'tracks', sort: 'recent', filter: 'all', genre: null, q: 'xtal' }));
      expect((await ask('find xtal')).body.query).to.include({ kind: 'tracks', q: 'xtal' });
      const [request] = model.completionRequests();
      expect(request!.headers.authorization).to.equal(`Bearer ${model.apiKey}`);
      const body = model.chats()[0]!;
      expect(body).to.include({ model: 'fake-model-1' });
      expect(body.response_format).to.deep.equal({ type: 'json_object' });
      expect(body.messages.at(-1)).to.deep.equal({ role: 'user', content: 'find xtal' });
      for (const word of ['artists', 'source_count', 'not_playable', 'multi_source', 'electronic', 'house', 'jazz']) expect(system()).to.include(word);
    });

    it('when a value lies outside the library vocabulary, then it is failed: invalid_answer', async () => {
      model.answerNext(json({ kind: 'songs', sort: 'name', filter: 'all', genre: null, q: null }), json({ kind: 'albums', sort: 'popularity', filter: 'all' }));
      for (let i = 0; i < 2; i++) {
        const res = await ask('anything');
        expect(res.status).to.equal(200);
        expect(res.body).to.include({ state: 'failed', reason: 'invalid_answer' });
      }
    });

    it('when the model answers something other than JSON, an error status, a refusal or too late, then each is failed with its reason', async () => {
      model.answerNext(
        { content: 'Sure! Here are your albums.' },
        { status: 500 },
        { status: 429, message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' },
        { refusal: 'I cannot help with that.' },
        { raw: '<html>bad gateway</html>', contentType: 'text/html' },
        json({ kind: 'albums', sort: 'name', filter: 'all', genre: null, q: null }, 2_500),
      );
      const reasons = [];
      for (let i = 0; i < 6; i++) {
        const res = await ask('albums');
        expect(res.status).to.equal(200);
        expect(res.body.state).to.equal('failed');
        expect(res.body.detail).to.be.a('string').and.not.include(model.apiKey);
        reasons.push(res.body.reason);
      }
      expect(reasons).to.deep.equal(['invalid_json', 'upstream_error', 'upstream_error', 'invalid_answer', 'upstream_error', 'timeout']);
    });

    it('when the model wraps its JSON in a code fence, then the object inside is the answer', async () => {
      model.answerNext({ content: '```json\n{"kind": "artists", "sort": "source_count", "filter": "multi_source", "genre": "", "q": "  "}\n```' });
      expect((await ask('well linked artists')).body).to.deep.equal({ state: 'ok', query: { kind: 'artists', sort: 'source_count', filter: 'multi_source', genre: null, q: null } });
    });

    it('when q is missing or blank, then 422 and no call', async () => {
      expect((await viewer.get('/library/ask')).status).to.equal(422);
      expect((await ask('   ')).status).to.equal(422);
      expect(model.completionRequests()).to.have.length(0);
    });
  });

  describe('GET /radio/seed-from-text', () => {
    it('when the model names an artist or an album, then the seed is the canonical id its folded name resolves to', async () => {
      model.answerNext(json({ seed_kind: 'artist', seed: 'APHEX  twin' }), json({ seed_kind: 'album', seed: 'discovery' }));
      expect((await seed('something like aphex twin')).body).to.deep.equal({ state: 'ok', seed: { seed_kind: 'artist', seed_id: ids.aphex, label: 'Aphex Twin' } });
      expect((await seed('discovery by daft punk')).body).to.deep.equal({ state: 'ok', seed: { seed_kind: 'album', seed_id: ids.discovery, label: 'Discovery — Daft Punk' } });
    });

    it('when the model names a mood or a genre of the playable library, then the seed is its name; the prompt lists them', async () => {
      model.answerNext(json({ seed_kind: 'mood', seed: 'Upbeat' }), json({ seed_kind: 'genre', seed: 'House' }), json({ seed_kind: 'genre', seed: 'calm' }));
      expect((await seed('something upbeat')).body).to.deep.equal({ state: 'ok', seed: { seed_kind: 'mood', seed_id: 'upbeat', label: 'upbeat' } });
      expect((await seed('house music')).body.seed).to.deep.equal({ seed_kind: 'genre', seed_id: 'house', label: 'house' });
      expect((await seed('calm')).body.seed, 'a genre the library knows as a mood').to.deep.equal({ seed_kind: 'mood', seed_id: 'calm', label: 'calm' });
      for (const term of ['upbeat', 'dreamy', 'calm', 'house', 'ambient']) expect(system()).to.include(term);
      expect(system(), 'only what can be played').to.not.include('jazz').and.not.include('smoky');
    });

    it('when nothing in the playable library matches, then failed: no_match', async () => {
      model.answerNext(json({ seed_kind: 'genre', seed: 'jazz' }), json({ seed_kind: 'artist', seed: 'Nobody Known' }), json({ seed_kind: 'mood', seed: 'furious' }));
      for (const q of ['jazz', 'nobody', 'furious']) expect((await seed(q)).body).to.include({ state: 'failed', reason: 'no_match' });
    });

    it('when the model names a kind radio does not take, then failed: invalid_answer', async () => {
      model.answerNext(json({ seed_kind: 'playlist', seed: 'mine' }));
      expect((await seed('my playlist')).body).to.include({ state: 'failed', reason: 'invalid_answer' });
    });
  });

  describe('POST /library/playlist/generate', () => {
    /** Answers with the indexes of the prompt's lines that name these titles, in this order. */
    const pick = (titles: string[], extra: number[] = [], title = 'Night Drive') => ({
      content: (request: { messages: { content: string }[] }) => {
        const lines = request.messages[0]!.content.split('\n').filter((l) => /^\d+\. /.test(l));
        const indexes = titles.map((t) => Number(lines.find((l) => l.includes(`— ${t} `) || l.endsWith(`— ${t}`))!.split('.')[0]));
        return JSON.stringify({ title, indexes: [...indexes, ...extra] });
      },
    });

    it('when the model picks indexes, then it proposes those playable tracks in order, out-of-range and repeated indexes dropped', async () => {
      model.answerNext(pick(['One More Time', 'Xtal'], [999, -1, 1, 0, 1]));
      const res = await generate({ request: 'a late night drive', genre: null, max_tracks: 25 });
      expect(res.status).to.equal(200);
      expect(res.body.state).to.equal('ok');
      expect(res.body.title).to.equal('Night Drive');
      expect(res.body.tracks.map((t: { id: string }) => t.id)).to.deep.equal([ids.oneMoreTime, ids.xtal, ids.tha]);
      expect(res.body.tracks.every((t: { playable: boolean }) => t.playable)).to.equal(true);
      const lines = system().split('\n').filter((l) => /^\d+\. /.test(l));
      expect(lines, 'only playable tracks are listed').to.have.length(4);
      expect(lines[0]).to.match(/^0\. Aphex Twin — Xtal \(Selected Ambient Works 85-92\) \[/);
      expect(model.chats()[0]!.messages.at(-1)).to.deep.equal({ role: 'user', content: 'a late night drive' });
    });

    it('when max_tracks is smaller than the pick, then the first ones are kept', async () => {
      model.answerNext(pick(['Aerodynamic', 'Tha', 'Xtal']));
      const res = await generate({ request: 'three', max_tracks: 2 });
      expect(res.body.tracks.map((t: { id: string }) => t.id)).to.deep.equal([ids.aerodynamic, ids.tha]);
    });

    it('when a genre is given, then only tracks of that genre (through their album) are listed', async () => {
      model.answerNext(pick(['Aerodynamic']));
      expect((await generate({ request: 'dance', genre: 'House', max_tracks: 10 })).body.state).to.equal('ok');
      const lines = system().split('\n').filter((l) => /^\d+\. /.test(l));
      expect(lines.map((l) => l.split(' — ')[0])).to.deep.equal(['0. Daft Punk', '1. Daft Punk']);
    });

    it('when no playable track fits, then no_candidates without a call', async () => {
      const res = await generate({ request: 'jazz please', genre: 'jazz', max_tracks: 10 });
      expect(res.body).to.deep.equal({ state: 'no_candidates' });
      expect(model.completionRequests()).to.have.length(0);
    });

    it('when no index names a listed track, or an index is not an integer, then failed: invalid_answer', async () => {
      model.answerNext(json({ title: 'Nothing', indexes: [42, 99] }), json({ title: 'Halves', indexes: [0.5] }), json({ indexes: [0] }));
      for (let i = 0; i < 3; i++) expect((await generate({ request: 'x' })).body).to.include({ state: 'failed', reason: 'invalid_answer' });
    });

    it('when the body is invalid, then 422', async () => {
      expect((await generate({ request: '', max_tracks: 5 })).status).to.equal(422);
      expect((await generate({ request: 'x', max_tracks: 0 })).status).to.equal(422);
      expect((await generate({ request: 'x', max_tracks: 1_000_000 })).status).to.equal(422);
    });
  });
});

describe('assistant: without a model key', function () {
  this.timeout(60_000);
  let model: ModelFake;
  let app: TestApp;

  before(async function () {
    this.timeout(120_000);
    model = await startModelFake();
    const { LLM_API_KEY: _key, ...env } = model.env();
    app = await startTestApp(env);
  });
  after(async () => {
    await app?.close();
    await model?.close();
  });

  it('every route that asks the model answers 200 not_configured, and the model server hears nothing', async () => {
    const { client: viewer } = await signedInAs(app, 'viewer');
    const { client: admin } = await signedInAs(app, 'admin');
    const answers = [
      await viewer.get('/library/ask?q=albums'),
      await viewer.get('/radio/seed-from-text?q=calm'),
      await viewer.post('/library/playlist/generate', { request: 'anything', genre: null, max_tracks: 5 }),
      await admin.post('/admin/ask', { question: 'How many albums?' }),
    ];
    expect(answers.map((a) => [a.status, a.body])).to.deep.equal(answers.map(() => [200, { state: 'not_configured' }]));
    expect(model.requests).to.have.length(0);
    expect((await admin.get('/admin/ask/conversations')).body).to.deep.equal([]);
  });
});
