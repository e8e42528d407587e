import { expect } from 'chai';
import type { Express } from 'express';
import { z } from 'zod';
import { setLogLevel } from '../../../../infra/logger.ts';
import {
  createUpstreamClient,
  DEFAULT_USER_AGENT,
  type UpstreamClientOptions,
} from '../../../../infra/upstreams/http-client.ts';
import { createPacer } from '../../../../infra/upstreams/pacer.ts';
import { UpstreamError, UpstreamNotFound } from '../../../../shared/errors.ts';
import { startFake, type Fake } from '../../../fakes/harness.ts';

const artist = z.object({ id: z.string(), name: z.string() });
type Answer = { status: number; headers?: Record<string, string> };
/** What test/support/hooks.ts set, to restore after a test that needs the warn lines. */
const testLogLevel = (process.env.TEST_LOG_LEVEL ?? 'silent') as Parameters<typeof setLogLevel>[0];

/** GET /artist/:id answers the given failures in turn, then the artist. */
function failingFirst(...answers: Answer[]) {
  return (app: Express) =>
    app.get('/artist/:id', (req, res) => {
      const next = answers.shift();
      if (next) res.status(next.status).set(next.headers ?? {}).json({ error: 'nope' });
      else res.json({ id: req.params.id, name: 'Low' });
    });
}

async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

function gaps(fake: Fake): number[] {
  return fake.requests.slice(1).map((r, i) => r.at - fake.requests[i]!.at);
}

describe('upstream http client', () => {
  let fake: Fake | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  async function clientFor(setup: (app: Express) => void, options: Partial<UpstreamClientOptions> = {}) {
    fake = await startFake(setup);
    return { fake, client: createUpstreamClient({ service: 'metabase', baseUrl: fake.url, retryBaseMs: 10, ...options }) };
  }

  it('parses a success with the schema and sends the query and User-Agent', async () => {
    const { client, fake } = await clientFor(failingFirst());
    const found = await client.getJson('/artist/a1', { searchParams: { fmt: 'json', inc: undefined }, schema: artist });
    expect(found).to.deep.equal({ id: 'a1', name: 'Low' });
    const [sent] = fake.requests;
    expect(sent).to.include({ method: 'GET', path: '/artist/a1' });
    expect(sent?.query).to.deep.equal({ fmt: 'json' });
    expect(sent?.headers['user-agent']).to.equal(DEFAULT_USER_AGENT);
  });

  it('turns an answer of the wrong shape into a 502', async () => {
    const { client } = await clientFor((app) => app.get('/artist/a1', (_req, res) => res.json({ id: 7 })));
    const error = await caught(client.getJson('artist/a1', { schema: artist }));
    expect(error).to.be.instanceOf(UpstreamError).and.include({ status: 502 });
    expect(error.message).to.contain('at id');
  });

  it('retries a 503 and returns the answer that follows', async () => {
    const { client, fake } = await clientFor(failingFirst({ status: 503 }));
    expect(await client.getJson('artist/a1', { schema: artist })).to.deep.equal({ id: 'a1', name: 'Low' });
    expect(fake.requests).to.have.length(2);
  });

  it('waits as long as Retry-After asks before the next attempt', async () => {
    const { client, fake } = await clientFor(failingFirst({ status: 503, headers: { 'Retry-After': '1' } }));
    await client.getJson('artist/a1', { schema: artist });
    const [gap] = gaps(fake);
    expect(gap).to.be.within(950, 1600);
  });

  it('gives up at once when Retry-After is beyond the cap', async () => {
    const { client, fake } = await clientFor(failingFirst({ status: 429, headers: { 'Retry-After': '120' } }));
    const error = await caught(client.getJson('artist/a1'));
    expect(error).to.be.instanceOf(UpstreamError).and.include({ status: 502 });
    expect(error.message).to.contain('retry after 120 s');
    expect(fake.requests).to.have.length(1);
  });

  it('gives up on 429 after its retries with a 502', async () => {
    const limited = { status: 429 };
    const { client, fake } = await clientFor(failingFirst(limited, limited, limited, limited), { retries: 2 });
    const error = await caught(client.getJson('artist/a1'));
    expect(error).to.be.instanceOf(UpstreamError).and.include({ status: 502 });
    expect(fake.requests).to.have.length(3);
  });

  it('reports a 404 as UpstreamNotFound without retrying', async () => {
    const { client, fake } = await clientFor(failingFirst({ status: 404 }));
    const error = await caught(client.getJson('artist/a1'));
    expect(error).to.be.instanceOf(UpstreamNotFound).and.include({ status: 404, service: 'metabase' });
    expect(fake.requests).to.have.length(1);
  });

  it('hands back an allowed status like a success', async () => {
    const { client } = await clientFor(failingFirst({ status: 404 }));
    expect(await client.getJson('artist/a1', { allowStatuses: [404] })).to.deep.equal({ error: 'nope' });
  });

  it('turns a timeout into an UpstreamError', async () => {
    const slow = (app: Express) => app.get('/slow', (_req, res) => void setTimeout(() => res.json({}), 500));
    const { client } = await clientFor(slow, { timeoutMs: 100, retries: 0 });
    const error = await caught(client.getJson('slow'));
    expect(error).to.be.instanceOf(UpstreamError).and.include({ status: 502 });
    expect(error.message).to.contain('timed out');
  });

  it('sends a form and does not repeat a POST the server may have handled', async () => {
    const { client, fake } = await clientFor((app) => app.post('/scrobble', (_req, res) => res.status(500).end()));
    const error = await caught(client.postForm('scrobble', { track: 'Sunflower', artist: 'Low' }));
    expect(error).to.be.instanceOf(UpstreamError);
    expect(fake.requests).to.have.length(1);
    expect(fake.requests[0]?.headers['content-type']).to.contain('application/x-www-form-urlencoded');
    expect(fake.requests[0]?.body).to.deep.equal({ track: 'Sunflower', artist: 'Low' });
  });

  it('sends JSON and reads raw text for non-JSON protocols', async () => {
    const { client, fake } = await clientFor((app) => {
      app.post('/chat', (req, res) => res.json({ echo: req.body }));
      app.get('/library.xml', (_req, res) => res.type('xml').send('<MediaContainer size="0"/>'));
    });
    expect(await client.postJson('chat', { q: 'hi' })).to.deep.equal({ echo: { q: 'hi' } });
    expect(fake.requests[0]?.headers['content-type']).to.contain('application/json');
    expect(await client.getText('library.xml')).to.equal('<MediaContainer size="0"/>');
  });

  it('spaces paced requests and leaves unpaced ones alone', async () => {
    const paced = await clientFor(failingFirst(), { pacer: createPacer({ enabled: true, minIntervalMs: 200 }) });
    await Promise.all(['a', 'b', 'c'].map((id) => paced.client.getJson(`artist/${id}`)));
    for (const gap of gaps(paced.fake)) expect(gap).to.be.at.least(180);
    await paced.fake.close();

    const free = await clientFor(failingFirst(), { pacer: createPacer({ enabled: false, minIntervalMs: 200 }) });
    await Promise.all(['a', 'b', 'c'].map((id) => free.client.getJson(`artist/${id}`)));
    const spread = free.fake.requests.at(-1)!.at - free.fake.requests[0]!.at;
    expect(spread).to.be.below(150);
  });

  describe('redirects: credentials never leave for another origin', () => {
    let elsewhere: Fake;
    before(async () => {
      elsewhere = await startFake((app: Express) => app.use((_req, res) => res.json({ id: 'stolen', name: 'stolen' })));
    });
    after(() => elsewhere.close());

    it('given a 302 to another origin, then nothing reaches it and the call is a 502 naming the service, not the target query', async () => {
      const { client } = await clientFor((app) => app.get('/artist/:id', (_req, res) => res.redirect(302, `${elsewhere.url}/collect?loot=1`)), {
        headers: { 'X-Plex-Token': 'sekrit-token' },
      });
      const error = await caught(client.getJson('artist/a1', { searchParams: { api_key: 'sekrit-key' } }));
      expect(error).to.be.instanceOf(UpstreamError).and.include({ status: 502, service: 'metabase' });
      expect(error.message).to.equal(`metabase: GET /artist/a1 redirected to another origin (${elsewhere.url}): not followed`);
      expect(elsewhere.requests).to.deep.equal([]);
    });

    it('given a redirect on the same origin, then it is followed with the credentials', async () => {
      const { client, fake } = await clientFor(
        (app) => {
          app.get('/old/:id', (req, res) => res.redirect(301, `/artist/${req.params.id}?api_key=${String(req.query.api_key)}`));
          failingFirst()(app);
        },
        { headers: { 'X-Plex-Token': 'sekrit-token' } },
      );
      expect(await client.getJson('old/a1', { searchParams: { api_key: 'k' }, schema: artist })).to.deep.equal({ id: 'a1', name: 'Low' });
      expect(fake.requests.map((r) => [r.path, r.headers['x-plex-token']])).to.deep.equal([
        ['/old/a1', 'sekrit-token'],
        ['/artist/a1', 'sekrit-token'],
      ]);
    });
  });

  it('cuts off a body beyond its cap, announced or not, with a 502 and no retry', async () => {
    const big = Buffer.alloc(64 * 1024, 1);
    const { client, fake } = await clientFor(
      (app) => {
        app.get('/announced', (_req, res) => res.type('application/octet-stream').send(big));
        app.get('/chunked', (_req, res) => {
          res.type('application/octet-stream');
          res.write(big.subarray(0, 32 * 1024));
          res.end(big.subarray(32 * 1024));
        });
      },
      { maxBodyBytes: 16 * 1024 },
    );
    for (const path of ['announced', 'chunked']) {
      const error = await caught(client.request('GET', path));
      expect(error, path).to.be.instanceOf(UpstreamError).and.include({ status: 502 });
      expect(error.message).to.equal(`metabase: GET /${path} answered more than 16 KiB`);
    }
    expect(fake.requests).to.have.length(2);
    expect((await client.request('GET', 'announced', { maxBodyBytes: big.length })).body.length).to.equal(big.length);
  });

  it('keeps query strings out of error messages and retry logs', async () => {
    const { client, fake } = await clientFor(failingFirst({ status: 500 }, { status: 500 }), { retries: 1 });
    const logged: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => logged.push(String(chunk)) > 0) as typeof write;
    setLogLevel('warn');
    try {
      const error = await caught(client.getJson('artist/a1?api_key=sekrit', { searchParams: { token: 'sekrit' } }));
      expect(error.message).to.equal('metabase: GET /artist/a1 answered 500');
    } finally {
      process.stderr.write = write;
      setLogLevel(testLogLevel);
    }
    expect(fake.requests[0]?.query).to.deep.equal({ api_key: 'sekrit', token: 'sekrit' });
    expect(logged.join('')).to.contain('"path":"/artist/a1"').and.not.contain('sekrit');
  });
});
