import { expect } from 'chai';
import type { Projector } from '../../../infra/projections/projector.ts';
import { commentStream } from '../../../shared/streams.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { pollUntil } from '../../support/scrobbler.ts';

/** A read model of notes rigged to throw on any note that says "poison", as a bug would. */
const rigged: Projector = {
  name: 'rigged_notes',
  version: 1,
  handles: ['CommentPosted'],
  tables: [],
  async apply(_trx, events) {
    for (const event of events) if ((event.data as { body: string }).body.includes('poison')) throw new Error('rigged to fail on poison');
  },
};

/** Answers the response and how long it took. */
async function timed<T>(request: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const response = await request();
  return [response, performance.now() - started];
}

/**
 * Well under the 5 s a command waits for the read models it affects: it did not wait on the failing
 * projector. Generous, as the suite shares a loaded machine.
 */
const PROMPT_MS = 2000;

describe('a projector that keeps failing on an event', () => {
  let app: TestApp;
  let admin: ApiClient;
  let user: ApiClient;
  let username: string;
  const readyz = () => app.client().get('/readyz');
  const riggedIn = (body: { projectors: { name: string; state: string }[] }) => body.projectors.find((p) => p.name === 'rigged_notes')!;

  before(async () => {
    app = await startTestApp({}, undefined, { service: { extraProjectors: [rigged], runner: { retryMs: 1000, maxAttempts: 3 } } });
    admin = await signedInAdmin(app);
    ({ client: user, username } = await signedInAs(app, 'viewer'));
    // The poisoned note comes straight into the log: whoever wrote it is not the subject here.
    const at = new Date().toISOString();
    const data = { comment_id: 'poisoned', username, kind: 'album', canonical_id: 'some-album', body: 'poison', at };
    await app.ctx.store.append(commentStream('poisoned'), [{ type: 'CommentPosted', data }], 'no_stream');
  });
  after(() => app.close());

  it('while it retries, logout ends the session at once and the service stays ready', async () => {
    await pollUntil(readyz, (res) => riggedIn(res.body).state === 'retrying', 10_000);
    const cookie = user.cookie('media_session')!;
    const [logout, elapsed] = await timed(() => user.post('/auth/logout'));
    expect(logout.status).to.equal(200);
    expect(elapsed).to.be.below(PROMPT_MS);
    const stolen = app.client();
    stolen.setCookie('media_session', cookie);
    expect((await stolen.get('/auth/me')).status).to.equal(401);
    const ready = await readyz();
    expect(ready.status).to.equal(200);
    expect(ready.body.status).to.equal('ready');
  });

  it('past its retries it stalls alone: /readyz answers 503 naming it, and notes answer at once', async () => {
    const stalled = await pollUntil(readyz, (res) => res.status === 503, 15_000);
    expect(stalled.status).to.equal(503);
    expect(stalled.body.status).to.equal('not_ready');
    expect(stalled.body.reasons.join(' ')).to.include('rigged_notes');
    const entry = stalled.body.projectors.find((p: { name: string }) => p.name === 'rigged_notes');
    expect(entry).to.include({ state: 'stalled' });
    expect(entry.stalled_on).to.include({ type: 'CommentPosted' });
    expect(entry).to.not.have.property('error');
    expect(entry.stalled_on).to.not.have.property('stream');
    const others = stalled.body.projectors.filter((p: { name: string }) => p.name !== 'rigged_notes');
    expect(others.map((p: { state: string }) => p.state)).to.satisfy((states: string[]) => states.every((s) => s === 'live'));
    const detailed = (await admin.get('/readyz')).body.projectors.find((p: { name: string }) => p.name === 'rigged_notes');
    expect(detailed).to.include({ error: 'rigged to fail on poison' });
    expect(detailed.stalled_on).to.include({ stream: commentStream('poisoned') });

    ({ client: user } = await signedInAs(app, 'viewer'));
    const [note, elapsed] = await timed(() => user.post('/me/comments/album/another-album', { body: 'a fine record' }));
    expect(note.status).to.equal(200);
    expect(elapsed).to.be.below(PROMPT_MS);
    expect((await user.get('/me/comments')).body.map((c: { body: string }) => c.body)).to.include('a fine record');
  });

  it('/healthz answers while the service is not ready', async () => {
    const res = await app.client().get('/healthz');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'ok' });
  });
});
