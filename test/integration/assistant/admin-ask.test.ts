import { expect } from 'chai';
import { reconcile } from '../../../command/canonical/reconciler.ts';
import { type CatalogFake, startCatalogFake } from '../../fakes/catalog/server.ts';
import { type ModelFake, json, startModelFake } from '../../fakes/llm/server.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { albumSeen, artistSeen } from '../../support/observations.ts';

const TRI_REPETAE_MBID = '5ef8e42b-4b86-3e2f-9b0c-6a8e1b4c2d10';

/** `POST /admin/ask`, the admin's conversations, and `POST /admin/ask/wishlist`, against a scripted model and catalog. */
describe('assistant: admin ask, conversations and the exact-id wishlist', function () {
  this.timeout(60_000);
  let model: ModelFake;
  let catalog: CatalogFake;
  let app: TestApp;
  let admin: ApiClient;
  let otherAdmin: { client: ApiClient; username: string };
  let amber: string;
  let triRepetae: string;

  before(async function () {
    this.timeout(120_000);
    [model, catalog] = await Promise.all([startModelFake(), startCatalogFake()]);
    app = await startTestApp({ ...model.env(), CATALOG_API_URL: catalog.url, LLM_TIMEOUT_MS: '1000' });
    admin = await signedInAdmin(app);
    otherAdmin = await signedInAs(app, 'admin', 'curator_ingrid');
    const autechre = artistSeen('mediaserver', 'mediaserver::srv::1', 'Autechre');
    amber = await reconcile(app.ctx, albumSeen('mediaserver', 'mediaserver::srv::10', 'Amber', autechre, { year: 1994 }));
    await reconcile(app.ctx, albumSeen('scrobbler', 'autechre::Amber', 'Amber', artistSeen('scrobbler', 'autechre', 'Autechre'), { genres: ['Ambient Techno'] }));
    triRepetae = await reconcile(app.ctx, albumSeen('metabase', TRI_REPETAE_MBID, 'Tri Repetae', artistSeen('metabase', 'a-autechre', 'Autechre'), { mbid: TRI_REPETAE_MBID }));
    // A curator's manual link: its evidence names them, which no prompt may carry.
    expect((await otherAdmin.client.post(`/albums/${amber}/refs`, { source: 'store', external_id: '1440807290' })).status).to.equal(200);
  });
  after(async () => {
    await app?.close();
    await Promise.all([model?.close(), catalog?.close()]);
  });
  /** Every request the model heard in this file, kept across the tests' clears. */
  const heard: string[] = [];
  beforeEach(() => {
    heard.push(...model.prompts());
    model.clear();
    catalog.clearRequests();
  });

  const ask = (client: ApiClient, body: Record<string, unknown>) => client.post('/admin/ask', body);
  const conversations = async (client: ApiClient) => {
    const res = await client.get('/admin/ask/conversations');
    expect(res.status).to.equal(200);
    return res.body as { conversation_id: string; question: string; turns: number; state: string; entity_ref: string | null }[];
  };

  describe('conversations', () => {
    let conversationId: string;

    it('when a question is answered, then a new conversation holds it, listed without bodies', async () => {
      model.answerNext(json({ answer: 'You have 2 albums.' }));
      const res = await ask(admin, { question: 'How many albums do I have?' });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ state: 'ok', turn: 1, answer: 'You have 2 albums.', entity_ref: null });
      conversationId = res.body.conversation_id;
      expect(model.chats()[0]!.messages.map((m) => m.content).join('\n')).to.include('"album":{"total":2');
      const list = await conversations(admin);
      expect(list).to.have.length(1);
      expect(list[0]).to.include({ conversation_id: conversationId, question: 'How many albums do I have?', state: 'ok', turns: 1, entity_ref: null });
      expect(list[0]).to.not.have.property('messages');
    });

    it('when a follow-up names the conversation, then the model hears the earlier turns and the conversation grows', async () => {
      model.answerNext(json({ answer: 'Amber and Tri Repetae.' }));
      const res = await ask(admin, { question: 'Which ones?', conversation_id: conversationId });
      expect(res.body).to.include({ state: 'ok', conversation_id: conversationId, turn: 2 });
      const roles = model.chats()[0]!.messages.map((m) => [m.role, m.content]);
      expect(roles.slice(2)).to.deep.equal([
        ['user', 'How many albums do I have?'],
        ['assistant', JSON.stringify({ answer: 'You have 2 albums.' })],
        ['user', 'Which ones?'],
      ]);
      const detail = await admin.get(`/admin/ask/conversations/${conversationId}`);
      expect(detail.status).to.equal(200);
      expect(detail.body).to.include({ conversation_id: conversationId, turns: 2, question: 'How many albums do I have?' });
      expect(detail.body.messages.map((m: { role: string; content: string }) => [m.role, m.content])).to.deep.equal([
        ['user', 'How many albums do I have?'],
        ['assistant', 'You have 2 albums.'],
        ['user', 'Which ones?'],
        ['assistant', 'Amber and Tri Repetae.'],
      ]);
    });

    it('when the model fails, then the answer is failed and nothing is stored, new or follow-up', async () => {
      model.answerNext({ status: 503, message: 'overloaded' }, { content: '{"answer": ' }, json({ answer: '' }), json({ answer: 'late' }, 2_500));
      const reasons = [];
      for (const body of [{ question: 'New one?' }, { question: 'More?', conversation_id: conversationId }, { question: 'Empty?' }, { question: 'Slow?' }]) {
        const res = await ask(admin, body);
        expect(res.status).to.equal(200);
        reasons.push([res.body.state, res.body.reason]);
      }
      expect(reasons).to.deep.equal([['failed', 'upstream_error'], ['failed', 'invalid_json'], ['failed', 'invalid_answer'], ['failed', 'timeout']]);
      expect((await conversations(admin)).map((c) => [c.conversation_id, c.turns])).to.deep.equal([[conversationId, 2]]);
      expect((await admin.get(`/admin/ask/conversations/${conversationId}`)).body.messages).to.have.length(4);
    });

    it("given another admin's conversation, then it is a 404 to read, continue or delete, and absent from the listing", async () => {
      model.answerNext(json({ answer: 'Theirs.' }));
      const theirs = (await ask(otherAdmin.client, { question: 'A private question of my own' })).body.conversation_id as string;
      const asked = model.completionRequests().length;
      expect((await admin.get(`/admin/ask/conversations/${theirs}`)).status).to.equal(404);
      expect((await ask(admin, { question: 'Hijack?', conversation_id: theirs })).status).to.equal(404);
      expect((await admin.delete(`/admin/ask/conversations/${theirs}`)).status).to.equal(404);
      expect(model.completionRequests(), 'refused before the model is asked').to.have.length(asked);
      expect((await conversations(admin)).map((c) => c.conversation_id)).to.not.include(theirs);
      expect((await conversations(otherAdmin.client)).map((c) => c.conversation_id)).to.deep.equal([theirs]);
      expect((await admin.get('/admin/ask/conversations/01NOSUCHCONVERSATION000000')).status).to.equal(404);
    });

    it('when the owner deletes a conversation, then it is gone for reading and continuing', async () => {
      model.answerNext(json({ answer: 'Short-lived.' }));
      const id = (await ask(admin, { question: 'Temporary?' })).body.conversation_id as string;
      const res = await admin.delete(`/admin/ask/conversations/${id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ conversation_id: id, deleted: true });
      expect((await admin.get(`/admin/ask/conversations/${id}`)).status).to.equal(404);
      expect((await ask(admin, { question: 'Still there?', conversation_id: id })).status).to.equal(404);
      expect((await conversations(admin)).map((c) => c.conversation_id)).to.not.include(id);
    });

    it('lists the newest activity first and honours limit', async () => {
      model.answerNext(json({ answer: 'One.' }), json({ answer: 'Two.' }));
      const first = (await ask(admin, { question: 'First?' })).body.conversation_id;
      const second = (await ask(admin, { question: 'Second?' })).body.conversation_id;
      const list = await conversations(admin);
      expect(list.slice(0, 2).map((c) => c.conversation_id)).to.deep.equal([second, first]);
      expect((await admin.get('/admin/ask/conversations?limit=1')).body).to.have.length(1);
      expect((await admin.get('/admin/ask/conversations?limit=0')).status).to.equal(422);
    });
  });

  describe('entity_ref', () => {
    it("when a question names an entity, then its doc, refs and history are in the context, without who made a manual link", async () => {
      model.answerNext(json({ answer: 'The year 1994 came from the mediaserver.' }));
      const res = await ask(admin, { question: 'Where does the year come from?', entity_ref: `album:${amber}` });
      expect(res.body).to.include({ state: 'ok', entity_ref: `album:${amber}` });
      const context = model.chats()[0]!.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
      for (const fact of [amber, '"title":"Amber"', 'mediaserver::srv::10', 'autechre::Amber', 'FactsObserved', '"year":1994', 'ambient techno', '"rule":"manual"', '1440807290']) {
        expect(context).to.include(fact);
      }
      expect(context).to.not.include(otherAdmin.username);

      model.answerNext(json({ answer: 'From the scrobbler.' }));
      const followUp = await ask(admin, { question: 'And the genre?', conversation_id: res.body.conversation_id });
      expect(followUp.body.entity_ref, 'a follow-up keeps the entity').to.equal(`album:${amber}`);
      expect(model.chats()[1]!.messages.map((m) => m.content).join('\n')).to.include('autechre::Amber');
    });

    it('when the entity is unknown, then 404; when the reference is malformed, then 422; neither asks the model', async () => {
      expect((await ask(admin, { question: 'What?', entity_ref: 'album:01NOSUCHALBUM0000000000000' })).status).to.equal(404);
      for (const ref of ['playlist:1', 'album:', 'Amber', `album:${amber} x`]) expect((await ask(admin, { question: 'What?', entity_ref: ref })).status, ref).to.equal(422);
      expect((await ask(admin, { question: '   ' })).status).to.equal(422);
      expect(model.completionRequests()).to.have.length(0);
    });
  });

  describe('POST /admin/ask/wishlist', () => {
    const wishlist = async () => ((await admin.get('/me/albums/wishlist')).body as { id: string }[]).map((a) => a.id);

    it('when a catalog id has no canonical album yet, then the album is seeded and wished for, as /me/albums/wishlist records it', async () => {
      const res = await admin.post('/admin/ask/wishlist', { catalog_id: 302127 });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ resolved_by: 'catalog_id', seeded: true });
      expect(res.body.album).to.include({ title: 'Discovery', artist_name: 'Daft Punk', status: 'wishlisted' });
      expect(await wishlist()).to.include(res.body.album.id);
      const events = await app.ctx.store.readStream(`albumcollection-admin.${res.body.album.id}`);
      expect(events.map((e) => e.type)).to.deep.equal(['AlbumAddedToWishlist']);
      expect(catalog.requests.every((r) => r.path.startsWith('/album/302127') || r.path.startsWith('/artist/')), 'no search by name').to.equal(true);

      const again = await admin.post('/admin/ask/wishlist', { catalog_id: '302127' });
      expect(again.body).to.include({ resolved_by: 'catalog_id', seeded: false });
      expect(again.body.album.id).to.equal(res.body.album.id);
    });

    it('when an MBID names a canonical album, then that album is wished for; a catalog id the catalog lacks falls through to it', async () => {
      const res = await admin.post('/admin/ask/wishlist', { mbid: TRI_REPETAE_MBID.toUpperCase() });
      expect(res.body).to.include({ resolved_by: 'mbid', seeded: false });
      expect(res.body.album.id).to.equal(triRepetae);
      expect(await wishlist()).to.include(triRepetae);
      const both = await admin.post('/admin/ask/wishlist', { catalog_id: 404404, mbid: TRI_REPETAE_MBID });
      expect(both.body).to.include({ resolved_by: 'mbid' });
    });

    it('when no canonical album carries the MBID and no catalog id is given, then 404 saying so', async () => {
      const res = await admin.post('/admin/ask/wishlist', { mbid: '00000000-0000-4000-8000-000000000000' });
      expect(res.status).to.equal(404);
      expect(res.body.detail).to.include('MBID');
      expect((await admin.post('/admin/ask/wishlist', { catalog_id: 404404 })).status).to.equal(404);
    });

    it('when the body names an album by name, or names nothing, then 422', async () => {
      for (const body of [{}, { mbid: 'Tri Repetae' }, { catalog_id: 'Discovery' }, { catalog_id: -1 }, { name: 'Discovery' }]) {
        expect((await admin.post('/admin/ask/wishlist', body)).status, JSON.stringify(body)).to.equal(422);
      }
    });
  });

  describe('privacy', () => {
    it("no prompt carried a key, a session, a user's name, or another admin's question", () => {
      expect(heard.length).to.be.greaterThan(10);
      const secrets = [model.apiKey, admin.cookie('media_session')!, otherAdmin.client.cookie('media_session')!, otherAdmin.username, 'admin-password-for-tests'];
      for (const secret of secrets) expect(heard.filter((p) => p.includes(secret)), secret).to.deep.equal([]);
      expect(heard.filter((p) => p.includes('A private question of my own')), 'only in its own asker\'s request').to.have.length(1);
    });
  });
});
