import { expect } from 'chai';
import fc from 'fast-check';
import { type CatalogFake, startCatalogFake } from '../../fakes/catalog/server.ts';
import { type Fake, startFake } from '../../fakes/harness.ts';
import { type MediaserverFake, mediaserverEnv, startMediaserverFake } from '../../fakes/mediaserver/server.ts';
import { type ScrobblerFake, generatedHistory, startScrobblerFake } from '../../fakes/scrobbler/server.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { hostileValues, jsonValue, urlValue } from '../../support/hostile-values.ts';
import { type Field, type Known, type Operation, type WireValue, fieldKey, fieldsOf, operationsOf, requestFor } from '../../support/openapi-walk.ts';
import { linkThroughBrowser } from '../../support/scrobbler.ts';
import { pollTask } from '../tasks/test-tasks.ts';

/**
 * Every operation of /openapi.json, with hostile values in each parameter and body field in turn
 * (valid values in the others, so the hostile one gets past the first check), then random
 * combinations from fast-check. The service must answer every one with a 4xx, a 2xx, or a 5xx the
 * operation documents (502/503: an upstream failed, refused the value or is not configured); never
 * a 500, never stack text, and it still answers afterwards.
 */

/** Operations that end the walker's session or links: walked last, in this order. */
const LAST = ['POST /scrobbler/auth/disconnect', 'DELETE /mediaserver/me', 'POST /auth/me/password', 'POST /auth/logout'];
const VICTIM = 'walkvictim';
/** Requests in flight at once: enough to overlap the fakes' latency, few enough for PGlite. */
const CONCURRENCY = 4;
const NUM_RUNS = Number(process.env.HOSTILE_RUNS ?? 150);
const STACK_TEXT = /\n\s+at |\bat .*\(.*:\d+:\d+\)|node_modules|\.ts:\d+|Error:/;

describe('hostile inputs on every operation of /openapi.json', function () {
  this.timeout(180_000);
  let app: TestApp;
  let admin: ApiClient;
  let fakes: Fake[];
  let operations: Operation[];
  let known: Known;

  before(async () => {
    const [scrobbler, mediaserver, catalog, nothing] = await Promise.all([startScrobblerFake(), startMediaserverFake(), startCatalogFake(), startFake(nothingHere)]);
    fakes = [scrobbler, mediaserver, catalog, nothing];
    app = await startTestApp({ ...unconfiguredUpstreams(nothing.url), ...scrobbler.env, ...mediaserverEnv(mediaserver), CATALOG_API_URL: catalog.url });
    admin = await signedInAdmin(app);
    known = await givenALibrary(app, admin, scrobbler, mediaserver, catalog);
    operations = operationsOf((await admin.get('/openapi.json')).body);
    operations.sort((a, b) => LAST.indexOf(a.name) - LAST.indexOf(b.name));
  });
  after(async () => {
    await app.close();
    await Promise.all(fakes.map((f) => f.close()));
  });

  it('walks at least every operation the service declares', () => {
    expect(operations.length).to.be.at.least(150);
  });

  it('answers each hostile parameter and body field of every operation without a 500 or stack text', async () => {
    const cases = operations.filter((op) => !LAST.includes(op.name)).flatMap((op) => hostileCases(op));
    const failures = await inBatches(cases, (c) => attempt(admin, c.op, c.overrides, c.label));
    expect(failures.filter(Boolean), `${failures.filter(Boolean).length} of ${cases.length} requests`).to.deep.equal([]);
  });

  it('holds for random combinations of hostile fields (fast-check; HOSTILE_SEED replays a failure)', async () => {
    const walked = operations.filter((op) => !LAST.includes(op.name) && fieldsOf(op).length > 0);
    const property = fc.asyncProperty(
      fc.constantFrom(...walked).chain((op) => fc.tuple(fc.constant(op), fc.tuple(...fieldsOf(op).map((f) => fc.option(valueFor(f), { nil: undefined }))))),
      async ([op, values]) => {
        const fields = fieldsOf(op);
        const overrides = new Map(fields.flatMap((f, i) => (values[i] ? [[fieldKey(f), values[i]] as [string, WireValue]] : [])));
        const failure = await attempt(admin, op, overrides, 'random');
        expect(failure).to.equal(undefined);
      },
    );
    const seed = process.env.HOSTILE_SEED === undefined ? Date.now() : Number(process.env.HOSTILE_SEED);
    await fc.assert(property, { numRuns: NUM_RUNS, seed }).catch((error: Error) => {
      throw new Error(`HOSTILE_SEED=${seed} replays this run\n${error.message}`);
    });
  });

  it('answers every operation without a session, or with a forged session cookie, without a 500', async () => {
    const cookies = ['a%00b', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.'];
    const cases = operations.flatMap((op) => [undefined, ...cookies].map((cookie) => ({ op, cookie })));
    const failures = await inBatches(cases, async ({ op, cookie }) => {
      const anonymous = app.client();
      if (cookie !== undefined) anonymous.setCookie('media_session', cookie);
      return attempt(anonymous, op, new Map(), `cookie ${cookie?.slice(0, 20)}`);
    });
    expect(failures.filter(Boolean)).to.deep.equal([]);
  });

  it('still answers afterwards, and walks the operations that end the session last', async () => {
    expect((await admin.get('/auth/me')).status).to.equal(200);
    const failures = [];
    for (const op of operations.filter((o) => LAST.includes(o.name))) {
      for (const c of hostileCases(op)) failures.push(await attempt(admin, c.op, c.overrides, c.label));
      failures.push(await attempt(admin, op, new Map(), 'valid'));
    }
    expect(failures.filter(Boolean)).to.deep.equal([]);
    expect((await app.client().get('/openapi.json')).status).to.equal(200);
    expect((await admin.get('/auth/me')).status).to.equal(401);
  });

  function hostileCases(op: Operation) {
    return fieldsOf(op).flatMap((field) =>
      hostileValues(field).map(([label, value]) => ({
        op,
        overrides: new Map([[fieldKey(field), value]]),
        label: `${field.in} ${field.path.join('.') || '(whole body)'} = ${label}`,
      })),
    );
  }

  /** One request: undefined when the answer is acceptable, else a line saying what went wrong. */
  async function attempt(client: ApiClient, op: Operation, overrides: Map<string, WireValue>, label: string): Promise<string | undefined> {
    const request = requestFor(op, known, overrides);
    const res = await client.request(request.method, request.url, request.body, request.body === undefined ? {} : { 'content-type': 'application/json' });
    const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
    const textual = /json|text/.test(res.headers.get('content-type') ?? '');
    const designed = res.status < 500 || (res.status !== 500 && op.statuses.has(res.status));
    if (designed && !(textual && STACK_TEXT.test(text))) return undefined;
    return `${op.name} ${label}: ${res.status} ${text.slice(0, 200)}`;
  }
});

function valueFor(field: Field): fc.Arbitrary<WireValue> {
  return field.in === 'body' ? jsonValue : urlValue;
}

/** Runs `check` over `items`, CONCURRENCY at a time; returns what each answered. */
async function inBatches<T, R>(items: T[], check: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await check(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return results;
}

/** Upstreams this walk has no fake for answer "nothing here" at once, so no route waits on the internet. */
function nothingHere(app: import('express').Express) {
  app.use((_req, res) => {
    res.status(404).json({ error: 'not found' });
  });
}

function unconfiguredUpstreams(url: string): Record<string, string> {
  const names = ['STREAMER_API_URL', 'STREAMER_ACCOUNTS_URL', 'STORE_API_URL', 'METABASE_API_URL', 'COVERART_API_URL', 'RELEASEDB_API_URL', 'FEATURES_API_URL', 'LYRICS_API_URL', 'LLM_API_URL'];
  return Object.fromEntries(names.map((name) => [name, url]));
}

/**
 * The walker (admin) linked to the scrobbler and the media server, a synced library, a catalog album,
 * a note and a second account; the answer names a real value for each parameter that names one.
 */
async function givenALibrary(app: TestApp, admin: ApiClient, scrobbler: ScrobblerFake, mediaserver: MediaserverFake, _catalog: CatalogFake): Promise<Known> {
  await signedInAs(app, 'viewer', VICTIM);
  scrobbler.state.addUser('walker', generatedHistory({ count: 40, newestUts: Math.floor(Date.now() / 1000) - 60, stepSeconds: 20_000, artists: 5 }));
  expect((await linkThroughBrowser(admin, scrobbler, 'walker')).status).to.equal(302);
  expect((await admin.post('/scrobbler/me/refresh-mirror')).body.inserted).to.equal(40);
  expect((await admin.post('/mediaserver/me/auth/start')).status).to.equal(200);
  mediaserver.linkPin();
  expect((await admin.post('/mediaserver/me/auth/finish')).body.status).to.equal('completed');
  const sync = await admin.post('/mediaserver/admin/libraries/5/sync');
  expect((await pollTask(admin, sync.body.task_id, undefined, 60_000)).status).to.equal('completed');
  const track = (await admin.get('/tracks/resolve?mediaserver_server=fakemachine0001&mediaserver_rating_key=158')).body;
  const album = (await admin.get('/albums/resolve?catalog=302127')).body;
  const note = (await admin.post(`/me/comments/track/${track.id}`, { body: 'a note' })).body;
  const ids = { artist: album.artist_id as string, album: album.id as string, track: track.id as string };
  const entity = (path: string) => (/artist/.test(path) ? ids.artist : /album/.test(path) ? ids.album : ids.track);
  return (name, op) => {
    if (['artist_id', 'album_id', 'canonical_album_id', 'track_id'].includes(name)) return ids[name.replace(/^canonical_|_id$/g, '') as keyof typeof ids];
    if (['canonical_id', 'target_id', 'source_id'].includes(name)) return entity(op.path);
    if (name === 'username') return op.path.startsWith('/scrobbler/') ? 'walker' : VICTIM;
    if (name === 'catalog_id') return 302127;
    return { section_id: '5', comment_id: note.id, home_user_id: 33542084, q: 'a' }[name];
  };
}
