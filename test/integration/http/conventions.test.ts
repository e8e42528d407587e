import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { setLogLevel } from '../../../infra/logger.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin } from '../../support/given.ts';

/** What test/support/hooks.ts set, restored after a test that needs the info lines. */
const testLogLevel = (process.env.TEST_LOG_LEVEL ?? 'silent') as Parameters<typeof setLogLevel>[0];
/** The interface's endpoint list, one `METHOD path` a line, beside the checkout. */
/** The interface's list of operations, one a line, as the specification gives it. */
const endpointsFile = resolve(import.meta.dirname, '..', '..', 'fixtures', 'interface', 'endpoints.txt');
const CLIENT_URL = 'http://localhost:5173';

/** A body must never carry a stack trace or a source location. */
function expectNoStack(body: unknown, what: string) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  expect(text, what).not.to.match(/\n\s+at |\bat .*\(.*:\d+:\d+\)|node_modules|\.ts:\d+|Error:/);
}

/** A request exactly as given: no cookie jar, no JSON encoding. */
async function raw(app: TestApp, method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) {
  const res = await fetch(app.url + path, { method, headers: init.headers ?? {}, body: init.body ?? null });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
  return { status: res.status, headers: res.headers, body: json, text };
}

describe('HTTP conventions', () => {
  let app: TestApp;
  let admin: ApiClient;

  before(async () => {
    app = await startTestApp({ CLIENT_URL });
    admin = await signedInAdmin(app);
  });
  after(() => app.close());

  describe('GET /openapi.json', () => {
    it('is OpenAPI 3.1.0, interface version 0.1.0, and passes a standard validator', async () => {
      const res = await app.client().get('/openapi.json');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(res.body.openapi).to.equal('3.1.0');
      expect(res.body.info.version).to.equal('0.1.0');
      const result = await new Validator().validate(res.body);
      expect(result.errors ?? [], JSON.stringify(result.errors)).to.deep.equal([]);
      expect(result.valid).to.equal(true);
    });

    it('spells every operation exactly as the interface does', async () => {
      const interfaceEndpoints = new Set(readFileSync(endpointsFile, 'utf8').split('\n').map((l) => l.trim()).filter(Boolean));
      const { paths } = (await app.client().get('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
      const operations = Object.entries(paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
      expect(operations).to.include('GET /auth/users/');
      expect(operations).to.include('GET /admin/task-history/{task_id}');
      // An operation the interface does not list must not be one of its operations spelled another
      // way: a trailing slash, a parameter name, letter case.
      const loose = (op: string) => op.toLowerCase().replace(/\{[^}]*\}/g, '{}').replace(/\/$/, '');
      const looseInterface = new Map([...interfaceEndpoints].map((op) => [loose(op), op]));
      const misspelled = operations.filter((op) => !interfaceEndpoints.has(op) && looseInterface.has(loose(op)));
      expect(misspelled.map((op) => `${op} (interface: ${looseInterface.get(loose(op))})`)).to.deep.equal([]);
      // Every operation is the interface's, but the auditors' entity histories, the health probes,
      // the monitor intake, the caller's task list, and the merge undo and audit export
      // (docs/time-travel.md) the interface leaves open.
      const beyond = (op: string) =>
        /^GET \/(artists|albums|tracks)\/\{\w+\}\/history$/.test(op) || op === 'GET /healthz' || op === 'GET /readyz' || /^POST \/monitor\/webhooks\/\w+$/.test(op) ||
        op === 'GET /me/tasks' ||
        /^POST \/admin\/canonical\/(artists|albums|tracks)\/\{target_id\}\/unmerge$/.test(op) ||
        op === 'GET /admin/audit/events';
      expect(operations.filter((op) => !interfaceEndpoints.has(op) && !beyond(op))).to.deep.equal([]);
    });

    it('documents each operation with its parameters, a 422 and its error statuses', async () => {
      const { paths } = (await app.client().get('/openapi.json')).body;
      const list = paths['/admin/task-history'].get;
      const names = list.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
      expect(names).to.include.members(['query:page', 'query:limit', 'query:name', 'query:status']);
      const limit = list.parameters.find((p: { name: string }) => p.name === 'limit');
      expect(limit.schema.default).to.equal(50);
      expect(list.responses).to.include.keys('200', '401', '403', '422');
      expect(paths['/admin/task-history/{task_id}/cancel'].post.responses).to.include.keys('200', '404');
      const detail = paths['/admin/task-history/{task_id}'].get.parameters.find((p: { name: string }) => p.name === 'task_id');
      expect(detail).to.include({ in: 'path', required: true });
    });
  });

  describe('GET /docs', () => {
    it('serves an HTML page whose scripts and styles all come from this service', async () => {
      const page = await raw(app, 'GET', '/docs');
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
      expect(page.text).not.to.match(/https?:\/\//);
      const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      expect(assets.length).to.be.at.least(2);
      for (const asset of assets) {
        expect(asset, asset).to.match(/^\/(?!\/)/);
        const res = await raw(app, 'GET', asset);
        expect(res.status, asset).to.equal(200);
        expect(res.text.length, asset).to.be.above(0);
      }
    });

    it('configures the viewer to read /openapi.json here and to call no online validator', async () => {
      const page = await raw(app, 'GET', '/docs');
      const scripts = [...page.text.matchAll(/src="([^"]+)"/g)].map((m) => m[1]!).filter((s) => !s.includes('swagger-ui-bundle'));
      const inline = (await Promise.all(scripts.map(async (s) => (await raw(app, 'GET', s)).text))).join('\n');
      expect(inline).to.include('/openapi.json');
      expect(inline).not.to.match(/https?:\/\//);
      expect(inline).to.match(/validatorUrl:\s*null/);
    });
  });

  describe('errors', () => {
    it('answers 422 with loc, msg and type for a bad query parameter', async () => {
      const res = await admin.get('/admin/task-history?limit=abc');
      expect(res.status).to.equal(422);
      expect(res.body).to.have.keys('detail');
      expect(res.body.detail).to.have.length(1);
      expect(res.body.detail[0]).to.have.keys('loc', 'msg', 'type');
      expect(res.body.detail[0].loc).to.deep.equal(['query', 'limit']);
      expect(res.body.detail[0].msg).to.be.a('string').and.not.be.empty;
      expect(res.body.detail[0].type).to.be.a('string').and.not.be.empty;
    });

    it('lists every bad query parameter at once', async () => {
      const res = await admin.get('/admin/task-history?limit=0&page=-1');
      expect(res.status).to.equal(422);
      expect(res.body.detail.map((d: { loc: string[] }) => d.loc)).to.have.deep.members([['query', 'limit'], ['query', 'page']]);
    });

    it('answers 422 "missing" at ["body", field] for a missing body field', async () => {
      const res = await app.client().post('/auth/login', { password: 'secret' });
      expect(res.status).to.equal(422);
      expect(res.body.detail).to.deep.equal([{ loc: ['body', 'username'], msg: 'Field required', type: 'missing' }]);
    });

    it('answers 422 for a body field of the wrong type', async () => {
      const res = await app.client().post('/auth/login', { username: 42, password: 'secret' });
      expect(res.status).to.equal(422);
      expect(res.body.detail[0].loc).to.deep.equal(['body', 'username']);
      expect(res.body.detail[0].type).to.not.equal('missing');
    });

    it('answers 422 in the same shape for malformed JSON', async () => {
      const res = await app.client().post('/auth/login', '{"username": "admin", ');
      expect(res.status).to.equal(422);
      expect(res.body.detail).to.have.length(1);
      expect(res.body.detail[0].loc[0]).to.equal('body');
      expect(res.body.detail[0]).to.have.keys('loc', 'msg', 'type');
    });

    it('answers 404 {"detail": "Not Found"} for an unknown route, and 405 for a known path with another method', async () => {
      for (const path of ['/no/such/route', '/admin/task-history/x/y/z', '/']) {
        const res = await admin.get(path);
        expect(res.status, path).to.equal(404);
        expect(res.body, path).to.deep.equal({ detail: 'Not Found' });
      }
      expect((await admin.post('/no/such/route', {})).body).to.deep.equal({ detail: 'Not Found' });
      const wrongMethod = await admin.delete('/admin/task-history');
      expect(wrongMethod.status).to.equal(405);
      expect(wrongMethod.body).to.have.keys('detail');
    });

    it('routes a path in any letter case and with a trailing slash, as express matches paths', async () => {
      for (const path of ['/admin/task-history', '/ADMIN/Task-History', '/admin/task-history/', '/Library/albums?sort=name']) {
        expect((await admin.get(path)).status, path).to.equal(200);
      }
    });

    it('answers {"detail": message} for domain errors', async () => {
      expect((await app.client().get('/admin/task-history')).body).to.deep.equal({ detail: 'Not authenticated' });
      const missing = await admin.get('/admin/task-history/unknown-task');
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ detail: 'Task not found' });
    });

    it('answers what the client got wrong with a 4xx, never a 500, and never a stack trace', async () => {
      const cookie = { cookie: `media_session=${admin.cookie('media_session')}` };
      const json = { 'content-type': 'application/json' };
      const cases: [string, Promise<{ status: number; body: unknown }>, number][] = [
        ['malformed escape in a path parameter', raw(app, 'GET', '/admin/task-history/%E0%A4%A', { headers: cookie }), 400],
        ['unknown content encoding', raw(app, 'POST', '/auth/login', { headers: { ...json, 'content-encoding': 'bogus' }, body: '{}' }), 415],
        ['unknown charset', raw(app, 'POST', '/auth/login', { headers: { 'content-type': 'application/json; charset=klingon' }, body: '{}' }), 415],
        ['body over the size limit', raw(app, 'POST', '/auth/login', { headers: json, body: JSON.stringify({ username: 'a', password: 'x'.repeat(1_100_000) }) }), 413],
        ['a JSON string instead of an object', raw(app, 'POST', '/auth/login', { headers: json, body: '"admin"' }), 422],
        ['an array instead of an object', raw(app, 'POST', '/auth/login', { headers: json, body: '[]' }), 422],
        ['no body at all', raw(app, 'POST', '/auth/login'), 422],
        ['repeated query parameter', raw(app, 'GET', '/admin/task-history?limit=1&limit=2', { headers: cookie }), 422],
        ['wrong password', raw(app, 'POST', '/auth/login', { headers: json, body: JSON.stringify({ username: 'admin', password: 'nope' }) }), 401],
        ['unknown task', raw(app, 'POST', '/admin/task-history/unknown/cancel', { headers: cookie }), 404],
      ];
      for (const [what, request, status] of cases) {
        const res = await request;
        expect(res.status, what).to.equal(status);
        expect(res.body, what).to.have.property('detail');
        expectNoStack(res.body, what);
      }
    });
  });

  describe('CSRF care for cookie sessions', () => {
    it('refuses an unsafe request from another origin with 403, even with a valid session', async () => {
      const res = await admin.post('/admin/canonical/rebuild', undefined, { origin: 'https://evil.example' });
      expect(res.status).to.equal(403);
      expect(res.body).to.have.keys('detail');
      const listed = await admin.get('/admin/task-history?name=canonical.rebuild');
      expect(listed.body.total).to.equal(0);
    });

    it('refuses a cross-origin login and a cross-origin request that only looks like the client', async () => {
      for (const origin of ['https://evil.example', 'null', 'http://localhost:5173.evil.example', 'https://localhost:5173']) {
        const res = await app.client().post('/auth/login', { username: 'admin', password: 'admin-password-for-tests' }, { origin });
        expect(res.status, origin).to.equal(403);
      }
    });

    it('allows the same request from CLIENT_URL and from the service itself (also as https behind a TLS proxy)', async () => {
      for (const origin of [CLIENT_URL, app.url, app.url.replace(/^http:/, 'https:')]) {
        const res = await app.client().post('/auth/login', { username: 'admin', password: 'admin-password-for-tests' }, { origin });
        expect(res.status, origin).to.equal(200);
      }
    });

    it('lets safe methods through from any origin (reads carry no side effects)', async () => {
      const res = await admin.get('/admin/task-history', { origin: 'https://evil.example' });
      expect(res.status).to.equal(200);
    });

    it('answers 415 to an unsafe request whose body is not JSON', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const res = await admin.post('/auth/login', 'username=admin&password=x', { 'content-type': type });
        expect(res.status, type).to.equal(415);
        expect(res.body, type).to.have.keys('detail');
      }
    });
  });

  describe('request log', () => {
    /** Runs requests with the info level on and returns the request lines written to stdout meanwhile. */
    async function requestLines(requests: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
      const written: string[] = [];
      const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        written.push(String(chunk));
        return true;
      }) as typeof process.stdout.write;
      setLogLevel('info');
      try {
        await requests();
        for (let i = 0; i < 5; i++) await nextTurn();
      } finally {
        setLogLevel(testLogLevel);
        process.stdout.write = write;
      }
      return written
        .flatMap((chunk) => chunk.split('\n'))
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((record) => record.msg === 'request');
    }

    it('writes one line per request, with method, path, status and time, and without the query string', async () => {
      const lines = await requestLines(async () => {
        await admin.get('/admin/task-history?limit=5&token=very-secret-value');
        await app.client().get('/no/such/route?api_key=another-secret');
        await app.client().post('/auth/login', { username: 'admin', password: 'wrong-password-secret' });
      });
      expect(lines).to.have.length(3);
      expect(lines.map((l) => [l.method, l.path, l.status])).to.deep.equal([
        ['GET', '/admin/task-history', 200],
        ['GET', '/no/such/route', 404],
        ['POST', '/auth/login', 401],
      ]);
      for (const line of lines) expect(line.ms).to.be.a('number');
      expect(lines[0]!.user).to.equal('admin');
      const text = JSON.stringify(lines);
      expect(text).not.to.match(/very-secret-value|another-secret|wrong-password-secret|\?/);
    });
  });
});
