import { expect } from 'chai';
import type { ApiClient, TestApp } from '../../support/api.ts';
import { startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { givenAlbum, givenMusic } from './entities.ts';

const bodies = (rows: { body: string }[]) => rows.map((r) => r.body);

describe('me: notes', () => {
  let app: TestApp;
  let admin: ApiClient;
  before(async () => {
    app = await startTestApp();
    admin = await signedInAdmin(app);
  });
  after(() => app.close());

  describe('given notes by two users and an admin on one album', () => {
    let alice: { client: ApiClient; username: string };
    let bob: { client: ApiClient; username: string };
    let music: Awaited<ReturnType<typeof givenMusic>>;
    let first: { id: string; comment_id: string; created_at: string };
    before(async () => {
      alice = await signedInAs(app, 'viewer');
      bob = await signedInAs(app, 'staff');
      music = await givenMusic(app, 'Noted Band');
      const posted = await alice.client.post(`/me/comments/album/${music.albumId}`, { body: 'first listen: great' });
      expect(posted.status).to.equal(200);
      first = posted.body;
      await bob.client.post(`/me/comments/album/${music.albumId}`, { body: 'not for me' });
      await alice.client.post(`/me/comments/album/${music.albumId}`, { body: 'second listen: even better' });
      await admin.post(`/me/comments/album/${music.albumId}`, { body: 'admin note' });
      await alice.client.post(`/me/comments/track/${music.trackId}`, { body: 'the single' });
    });

    it('then a post answers the note', () => {
      expect(first).to.include({ comment_id: first.id, username: alice.username, kind: 'album', canonical_id: music.albumId, body: 'first listen: great', edited: false });
      expect(first.created_at).to.be.a('string');
    });

    it('then each user reads only their own notes in the thread, oldest first', async () => {
      const thread = await alice.client.get(`/me/comments/album/${music.albumId}`);
      expect(thread.status).to.equal(200);
      expect(bodies(thread.body)).to.deep.equal(['first listen: great', 'second listen: even better']);
      expect(bodies((await bob.client.get(`/me/comments/album/${music.albumId}`)).body)).to.deep.equal(['not for me']);
    });

    it('then an admin reads everyone\'s notes in the thread', async () => {
      const thread = (await admin.get(`/me/comments/album/${music.albumId}`)).body;
      expect(bodies(thread)).to.deep.equal(['first listen: great', 'not for me', 'second listen: even better', 'admin note']);
      expect(thread.map((c: { username: string }) => c.username)).to.deep.equal([alice.username, bob.username, alice.username, 'admin']);
    });

    it('then counts are of the notes the caller can see, keyed as asked', async () => {
      const items = [{ kind: 'album', canonical_id: music.albumId }, { kind: 'track', canonical_id: music.trackId }, { kind: 'artist', canonical_id: music.artistId }, { kind: 'album', canonical_id: 'unknown' }];
      const mine = await alice.client.post('/me/comments/counts', { items });
      expect(mine.status).to.equal(200);
      expect(mine.body).to.deep.equal({ [`album::${music.albumId}`]: 2, [`track::${music.trackId}`]: 1, [`artist::${music.artistId}`]: 0, 'album::unknown': 0 });
      expect((await admin.post('/me/comments/counts', { items: items.slice(0, 1) })).body).to.deep.equal({ [`album::${music.albumId}`]: 4 });
      expect((await admin.post('/me/comments/counts', { items: [{ kind: 'albums', canonical_id: music.albumId }] })).body).to.deep.equal({ [`albums::${music.albumId}`]: 4 });
      expect((await admin.post('/me/comments/counts', { items: [{ kind: 'playlist', canonical_id: music.albumId }] })).status).to.equal(422);
      expect((await bob.client.post('/me/comments/counts', { items: [] })).body).to.deep.equal({});
    });

    it('then the caller\'s notes list newest first, each with an item summary', async () => {
      const list = (await alice.client.get('/me/comments')).body;
      expect(bodies(list)).to.deep.equal(['the single', 'second listen: even better', 'first listen: great']);
      expect(list[1].item).to.include({ kind: 'album', canonical_id: music.albumId, title: 'Noted Band Album', subtitle: 'Noted Band' });
      expect(list[1].item.cover).to.match(/^https:\/\/covers\.example\//);
      // The track has no cover of its own: it shows its album's.
      expect(list[0].item).to.deep.equal({ kind: 'track', canonical_id: music.trackId, title: 'Noted Band Song', subtitle: 'Noted Band · Noted Band Album', cover: list[1].item.cover });
    });

    it('when the author edits a note, then the thread shows the new text and the log keeps the old one', async () => {
      const edited = await alice.client.patch(`/me/comments/${first.id}`, { body: 'first listen: masterpiece' });
      expect(edited.status).to.equal(200);
      expect(edited.body).to.include({ id: first.id, body: 'first listen: masterpiece', edited: true, created_at: first.created_at });
      expect(bodies((await alice.client.get(`/me/comments/album/${music.albumId}`)).body)[0]).to.equal('first listen: masterpiece');
      const history = (await app.ctx.store.readStream(`comment-${first.id}`)).map((e) => [e.type, (e.data as { body?: string }).body]);
      expect(history).to.deep.equal([['CommentPosted', 'first listen: great'], ['CommentEdited', 'first listen: masterpiece']]);
    });

    it('when someone else edits or deletes the note, admins included, then 404 and the note is unchanged', async () => {
      for (const other of [bob.client, admin]) {
        expect((await other.patch(`/me/comments/${first.id}`, { body: 'hijacked' })).status).to.equal(404);
        expect((await other.delete(`/me/comments/${first.id}`)).status).to.equal(404);
      }
      expect((await alice.client.patch('/me/comments/no-such-note', { body: 'x' })).status).to.equal(404);
      expect(bodies((await alice.client.get(`/me/comments/album/${music.albumId}`)).body)[0]).to.equal('first listen: masterpiece');
    });

    it('when the author deletes the note, then it is gone from threads, lists and counts, and a second delete is a 404', async () => {
      const note = (await alice.client.post(`/me/comments/artist/${music.artistId}`, { body: 'to be deleted' })).body;
      const deleted = await alice.client.delete(`/me/comments/${note.id}`);
      expect(deleted.status).to.equal(200);
      expect((await alice.client.get(`/me/comments/artist/${music.artistId}`)).body).to.deep.equal([]);
      expect(bodies((await alice.client.get('/me/comments')).body)).to.not.include('to be deleted');
      expect((await admin.post('/me/comments/counts', { items: [{ kind: 'artist', canonical_id: music.artistId }] })).body).to.deep.equal({ [`artist::${music.artistId}`]: 0 });
      expect((await alice.client.delete(`/me/comments/${note.id}`)).status).to.equal(404);
      expect((await alice.client.patch(`/me/comments/${note.id}`, { body: 'back?' })).status).to.equal(404);
      expect((await app.ctx.store.readStream(`comment-${note.id}`)).map((e) => e.type)).to.deep.equal(['CommentPosted', 'CommentDeleted']);
    });
  });

  it('refuses empty, blank and over-long bodies (422) and unknown kinds (422)', async () => {
    const { client } = await signedInAs(app, 'viewer');
    const { albumId } = await givenMusic(app);
    for (const body of [{ body: '' }, { body: '   ' }, { body: 'x'.repeat(10_001) }, {}]) {
      expect((await client.post(`/me/comments/album/${albumId}`, body)).status, JSON.stringify(body).slice(0, 30)).to.equal(422);
    }
    expect((await client.post(`/me/comments/album/${albumId}`, { body: 'x'.repeat(10_000) })).status).to.equal(200);
    expect((await client.post(`/me/comments/playlist/${albumId}`, { body: 'hi' })).status).to.equal(422);
    const note = (await client.post(`/me/comments/album/${albumId}`, { body: 'short' })).body;
    expect((await client.patch(`/me/comments/${note.id}`, { body: '' })).status).to.equal(422);
  });

  it('a note on an id the canonical layer does not know is kept under that id, with an empty summary', async () => {
    const { client } = await signedInAs(app, 'viewer');
    const posted = await client.post('/me/comments/track/not-a-canonical-id', { body: 'about something else' });
    expect(posted.status).to.equal(200);
    expect(posted.body).to.include({ kind: 'track', canonical_id: 'not-a-canonical-id' });
    expect((await client.get('/me/comments/track/not-a-canonical-id')).body.map((n: { id: string }) => n.id)).to.deep.equal([posted.body.id]);
    expect((await client.get('/me/comments/album/not-a-canonical-id')).body).to.deep.equal([]);
    expect((await client.get('/me/comments')).body[0].item).to.deep.equal({ kind: 'track', canonical_id: 'not-a-canonical-id', title: null, subtitle: null, cover: null });
  });

  it('notes follow merge chains: posted through a merged-away id, read through any id of the chain', async () => {
    const { client } = await signedInAs(app, 'viewer');
    const [a, b, c] = [await givenAlbum(app, 'Note A', 'mb-n-a'), await givenAlbum(app, 'Note B', 'mb-n-b'), await givenAlbum(app, 'Note C', 'mb-n-c')];
    await client.post(`/me/comments/album/${a}`, { body: 'on a' });
    await client.post(`/me/comments/album/${c}`, { body: 'on c' });
    await admin.post(`/admin/canonical/albums/${b}/merge`, { source_id: a });
    const onMerged = await client.post(`/me/comments/album/${a}`, { body: 'through a, after the merge' });
    expect(onMerged.body.canonical_id).to.equal(b);
    await admin.post(`/admin/canonical/albums/${c}/merge`, { source_id: b });
    for (const id of [a, b, c]) {
      const thread = (await client.get(`/me/comments/album/${id}`)).body;
      expect(bodies(thread)).to.deep.equal(['on a', 'on c', 'through a, after the merge']);
      expect(thread.every((n: { canonical_id: string }) => n.canonical_id === c)).to.equal(true);
    }
    expect((await client.post('/me/comments/counts', { items: [{ kind: 'album', canonical_id: a }, { kind: 'album', canonical_id: c }] })).body).to.deep.equal({ [`album::${a}`]: 3, [`album::${c}`]: 3 });
    expect((await app.ctx.db.selectFrom('comments').select('canonical_id').where('canonical_id', 'in', [a, b]).execute())).to.deep.equal([]);
  });
});
