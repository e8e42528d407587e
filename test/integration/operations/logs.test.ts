import { expect } from 'chai';
import { setLogLevel } from '../../../infra/logger.ts';
import { type TestApp, startTestApp } from '../../support/api.ts';
import { capturedLog } from '../../support/capture-log.ts';
import { ADMIN, signedInAdmin } from '../../support/given.ts';

type Line = Record<string, unknown>;

/** The JSON lines written while `run` runs, once a line matching `until` is among them (a request's line is written on close). */
async function linesOf(run: () => Promise<unknown>, until: (line: Line) => boolean): Promise<Line[]> {
  setLogLevel('info');
  try {
    const { log } = await capturedLog(async () => {
      await run();
      // Written when the server side closes the response, a moment after the client has it.
      await new Promise((r) => setTimeout(r, 100));
    });
    const lines = log.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Line);
    if (!lines.some(until)) throw new Error(`no such line in:\n${log}`);
    return lines;
  } finally {
    setLogLevel('silent');
  }
}

const requestTo = (path: string) => (line: Line) => line.msg === 'request' && line.path === path;

describe('logs people can use', function () {
  // The first app of a file migrates the template database: slow on a loaded machine.
  this.timeout(120_000);
  describe('without a trusted proxy', () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp();
    });
    after(() => app.close());

    it('given an X-Request-Id, then the answer echoes it and the request line carries it, the address, status and duration', async () => {
      let echoed: string | null = null;
      const lines = await linesOf(async () => {
        const res = await app.client().get('/healthz', { 'X-Request-Id': 'probe-42', 'X-Forwarded-For': '203.0.113.9' });
        echoed = res.headers.get('x-request-id');
      }, requestTo('/healthz'));
      expect(echoed).to.equal('probe-42');
      const line = lines.find(requestTo('/healthz'))!;
      expect(line).to.include({ request_id: 'probe-42', method: 'GET', status: 200, user: null });
      expect(line.address, 'a forwarded-for header is not believed from anyone').to.match(/127\.0\.0\.1$/);
      expect(line.ms).to.be.a('number');
    });

    it('given no request id (or one unfit for a log line), then one is generated and echoed', async () => {
      const ids: (string | null)[] = [];
      const lines = await linesOf(async () => {
        ids.push((await app.client().get('/healthz')).headers.get('x-request-id'));
        ids.push((await app.client().get('/healthz', { 'X-Request-Id': 'two words\tand a tab' })).headers.get('x-request-id'));
      }, requestTo('/healthz'));
      for (const id of ids) expect(id).to.match(/^[0-9a-f-]{36}$/);
      expect(ids[0]).to.not.equal(ids[1]);
      expect(lines.filter(requestTo('/healthz')).map((l) => l.request_id)).to.deep.equal(ids);
    });

    it('given a signed-in user, then the request line names them', async () => {
      const admin = await signedInAdmin(app);
      const lines = await linesOf(() => admin.get('/auth/me'), requestTo('/auth/me'));
      expect(lines.find(requestTo('/auth/me'))).to.include({ user: ADMIN.username, status: 200 });
    });

    it('given a wrong password, then one warn line carries the address and the username, never the password', async () => {
      const lines = await linesOf(() => app.client().post('/auth/login', { username: 'mallory', password: 'guess-number-one' }), (l) => l.msg === 'failed login');
      const failed = lines.filter((l) => l.msg === 'failed login');
      expect(failed).to.have.length(1);
      expect(failed[0]).to.include({ level: 'warn', username: 'mallory' });
      expect(failed[0]!.address).to.match(/127\.0\.0\.1$/);
      expect(JSON.stringify(lines)).not.to.include('guess-number-one');
    });
  });

  describe('behind a trusted proxy (TRUSTED_PROXY=loopback)', () => {
    let app: TestApp;
    before(async () => {
      app = await startTestApp({ TRUSTED_PROXY: 'loopback' });
    });
    after(() => app.close());

    it('given X-Forwarded-For from the proxy, then the request line and a failed login carry the client address', async () => {
      const lines = await linesOf(
        () => app.client().post('/auth/login', { username: 'mallory', password: 'guess-number-two' }, { 'X-Forwarded-For': '203.0.113.9' }),
        requestTo('/auth/login'),
      );
      expect(lines.find(requestTo('/auth/login'))).to.include({ address: '203.0.113.9', status: 401 });
      expect(lines.find((l) => l.msg === 'failed login')).to.include({ address: '203.0.113.9', username: 'mallory' });
    });
  });
});
