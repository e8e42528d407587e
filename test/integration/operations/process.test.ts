import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { type Server, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { type ServiceProcess, freePort, npmStart } from '../../support/service-process.ts';

/** Whether something accepts connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

async function until(condition: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('running it: the npm start process', function () {
  // Spawns compile on a loaded 2-core machine: generous, bounded.
  this.timeout(120_000);
  let dataDir: string;
  let running: ServiceProcess | undefined;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'music-library-process-'));
  });
  afterEach(async () => {
    if (running && running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill('SIGKILL');
      await running.exited;
    }
    running = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('given another program on the port, when it starts, then it exits non-zero with one line naming the port and PORT', async () => {
    const holder: Server = createServer();
    await new Promise<void>((done) => holder.listen(0, '127.0.0.1', () => done()));
    const port = (holder.address() as { port: number }).port;
    try {
      running = npmStart({ PORT: String(port), DATA_DIR: join(dataDir, 'data') });
      const code = await running.exited;
      expect(code).to.not.equal(0);
      expect(running.output()).to.include(`port ${port} is already in use (set PORT)`);
      expect(running.output(), 'no stack trace').not.to.match(/\n\s+at /);
      expect(running.output()).not.to.include('Listening on');
    } finally {
      holder.close();
    }
  });

  it('given a request in flight, when npm gets SIGTERM, then nothing listens any more, the request completes and it exits 0', async () => {
    const port = await freePort();
    running = npmStart({ PORT: String(port), DATA_DIR: join(dataDir, 'data'), ADMIN_PASSWORD: 'process-admin-password', LOG_LEVEL: 'info' });
    await running.waitFor(/Listening on http/, 90_000);

    // A login whose body is still arriving: headers sent, the rest follows after the signal.
    const body = JSON.stringify({ username: 'admin', password: 'process-admin-password' });
    const login = request({ host: '127.0.0.1', port, method: 'POST', path: '/auth/login', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    const answered = new Promise<number>((done, failed) => {
      login.once('response', (res) => {
        res.resume();
        res.once('end', () => done(res.statusCode!));
      });
      login.once('error', failed);
    });
    login.write(body.slice(0, 10));
    await new Promise((r) => setTimeout(r, 300));

    running.child.kill('SIGTERM');
    await running.waitFor(/"msg":"stopping"/, 10_000);
    await until(async () => !(await listening(port)), 10_000);
    login.end(body.slice(10));

    expect(await answered).to.equal(200);
    expect(await running.exited).to.equal(0);
    expect(running.output()).to.match(/"msg":"service stopped"/);
    expect(await listening(port), 'no orphan keeps the port').to.equal(false);
  });
});
