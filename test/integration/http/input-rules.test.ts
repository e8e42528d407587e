import { connect } from 'node:net';
import { expect } from 'chai';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAs } from '../../support/given.ts';
import { type JsonSchema, operationsOf } from '../../support/openapi-walk.ts';
import { DAY, givenScrobblerLink, givenScrobbles, nowUts } from '../../support/scrobbles.ts';

/** A request written byte for byte, for what no HTTP client agrees to send. */
function rawRequest(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** Every integer schema of a parameter or a request body, at any depth, with where it is. */
function integersOf(schema: JsonSchema, where: string): [string, JsonSchema][] {
  const own: [string, JsonSchema][] = schema.type === 'integer' || schema.type === 'number' ? [[where, schema]] : [];
  const inner = [
    ...(schema.anyOf ?? []).map((s) => integersOf(s, where)),
    ...Object.entries(schema.properties ?? {}).map(([name, s]) => integersOf(s, `${where}.${name}`)),
    ...(schema.items ? [integersOf(schema.items, `${where}[]`)] : []),
  ];
  return [...own, ...inner.flat()];
}

describe('input rules at the edge', () => {
  let app: TestApp;
  let viewer: ApiClient;
  let username: string;

  before(async () => {
    app = await startTestApp();
    ({ client: viewer, username } = await signedInAs(app, 'viewer'));
  });
  after(() => app.close());

  describe('NUL and lone surrogates', () => {
    const refused = async (request: Promise<{ status: number; body: any }>, loc: (string | number)[], type: string) => {
      const res = await request;
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body.detail, 'named once').to.have.length(1);
      expect(res.body.detail[0]).to.include({ type });
      expect(res.body.detail[0].loc).to.deep.equal(loc);
    };

    it('refuses a NUL in a JSON body string with 422 naming the field, once (login)', async () => {
      await refused(app.client().post('/auth/login', { username: 'ad\u0000min', password: 'x' }), ['body', 'username'], 'string_nul');
    });

    it('refuses a NUL decoded from a path segment (/artists/a%00b)', async () => {
      await refused(viewer.get('/artists/a%00b'), ['path', 'artist_id'], 'string_nul');
    });

    it('refuses a NUL in a query value', async () => {
      await refused(viewer.get('/library/artists?q=a%00b'), ['query', 'q'], 'string_nul');
    });

    it('refuses lone surrogates in a note, a favorite and a display name', async () => {
      await refused(viewer.post('/me/comments/track/01ARZ3NDEKTSV4RRFFQ69G5FAV', { body: 'la \ud800' }), ['body', 'body'], 'string_unicode');
      await refused(viewer.post('/me/favorites/tracks', { canonical_id: '\udc00x' }), ['body', 'canonical_id'], 'string_unicode');
      await refused(viewer.patch('/auth/me', { display_name: 'x\udc00' }), ['body', 'display_name'], 'string_unicode');
    });

    it('refuses them in object keys at any depth', async () => {
      const body = { refs: [{ source: 'catalog', external_id: '1', 'x\u0000': 1 }] };
      await refused(viewer.post('/artists/refs/check', body), ['body', 'refs', 0, 'x\u0000'], 'string_nul');
    });

    it('refuses a NUL in the session cookie as decoded', async () => {
      const client = app.client();
      client.setCookie('media_session', 'a%00b');
      await refused(client.get('/auth/me'), ['cookie', 'media_session'], 'string_nul');
    });

    it('leaves a raw NUL in a header to the HTTP parser, which answers 400', async () => {
      const answer = await rawRequest(app.url, 'GET /auth/me HTTP/1.1\r\nHost: x\r\nX-Name: a\u0000b\r\nConnection: close\r\n\r\n');
      expect(answer).to.match(/^HTTP\/1\.1 400 /);
    });

    it('accepts well-formed text: surrogate pairs, RTL marks, combining characters', async () => {
      const res = await viewer.patch('/auth/me', { display_name: '😀 \u202eevil\u202c e\u0301' });
      expect(res.status).to.equal(200);
      expect(res.body.display_name).to.equal('😀 \u202eevil\u202c e\u0301');
    });
  });

  describe('deep nesting', () => {
    it('answers a body nested far deeper than any schema with 422, not a stack overflow', async () => {
      // Written as text: JSON.stringify itself overflows the stack at this depth.
      const depth = 100_000;
      const res = await viewer.post('/me/favorites/tracks', `{"canonical_id": "x", "extra": ${'{"a": '.repeat(depth)}1${'}'.repeat(depth)}}`);
      expect(res.status).to.equal(422);
      expect(res.body.detail[0]).to.include({ type: 'too_deep' });
      expect(res.body.detail[0].loc.slice(0, 3)).to.deep.equal(['body', 'extra', 'a']);
    });
  });

  describe('integer ranges', () => {
    before(async () => {
      await givenScrobblerLink(app, username, `${username}-fm`);
      const plays = [0, 3, 400, 8_000].map((daysAgo) => ({ uts: nowUts() - daysAgo * DAY, artist: 'Daft Punk', track: 'One More Time', album: 'Discovery' }));
      await givenScrobbles(app, username, plays, `${username}-fm`);
    });

    it('answers 422 for a window past its documented end (window_days=100000, not_played_days=100000)', async () => {
      for (const [path, name] of [
        ['/scrobbler/me/dashboard?window_days=100000', 'window_days'],
        ['/scrobbler/me/dashboard/heatmap-cell?dow=0&hour=0&window_days=100000', 'window_days'],
        ['/scrobbler/me/new-artists?window_days=100000', 'window_days'],
        ['/scrobbler/me/rediscover?not_played_days=100000', 'not_played_days'],
        ['/library/artists?page=9223372036854775808', 'page'],
      ]) {
        const res = await viewer.get(path!);
        expect(res.status, path).to.equal(422);
        expect(res.body.detail.map((d: { loc: string[] }) => d.loc), path).to.deep.equal([['query', name]]);
      }
    });

    it('answers the longest documented window over the whole history', async () => {
      const dashboard = await viewer.get('/scrobbler/me/dashboard?window_days=36500');
      expect(dashboard.status).to.equal(200);
      expect(dashboard.body).to.include({ state: 'ready', window_days: 36_500 });
      expect(dashboard.body.top_tracks[0].plays).to.equal(4);
      for (const path of ['/scrobbler/me/new-artists?window_days=36500', '/scrobbler/me/rediscover?not_played_days=36500', '/scrobbler/me/dashboard/heatmap-cell?dow=0&hour=0&window_days=-36500']) {
        expect((await viewer.get(path)).status, path).to.equal(200);
      }
    });

    it('documents a range for every integer parameter and integer body field in /openapi.json', async () => {
      const unbounded = operationsOf((await app.client().get('/openapi.json')).body).flatMap((op) => {
        const integers = [...op.params.flatMap((p) => integersOf(p.schema, `${p.in} ${p.name}`)), ...(op.body ? integersOf(op.body, 'body') : [])];
        // zod writes ±(2^53 - 1) for an integer declared without bounds: that is no documented range.
        const bounded = (s: JsonSchema) => Math.abs(s.minimum ?? (s.exclusiveMinimum ?? Infinity)) < Number.MAX_SAFE_INTEGER && Math.abs(s.maximum ?? Infinity) < Number.MAX_SAFE_INTEGER;
        return integers.filter(([, schema]) => !bounded(schema)).map(([where]) => `${op.name} ${where}`);
      });
      expect(unbounded).to.deep.equal([]);
    });
  });
});
