import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { ApiClient } from '../../support/api.ts';
import { freePort } from '../../support/service-process.ts';

const repoRoot = resolve(import.meta.dirname, '..', '..', '..');
const ADMIN_PASSWORD = 'kill9-admin-password';

interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** `node --import tsx infra/main.ts` on DATA_DIR, resolved once it prints where it listens. */
async function startService(dataDir: string, port: number): Promise<Running> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ADMIN_PASSWORD, PASSWORD_SCRYPT_N: '1024', LOG_LEVEL: 'warn', UPSTREAM_PACING: 'off' };
  for (const name of ['DATABASE_URL', 'EVENTSTORE_URL', 'KAFKA_BROKERS', 'ROLES', 'JWT_SECRET', 'SECRET_KEY']) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/main.ts'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((done, failed) => {
    const timer = setTimeout(() => failed(new Error(`no 'Listening on' within 90 s:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        done(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      failed(new Error(`service exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
  return { child, url, output: () => output };
}

/** SIGKILL: no shutdown hook, no flush, no chance to record anything. */
function kill9(running: Running): Promise<void> {
  return new Promise((done) => {
    if (running.child.exitCode !== null || running.child.signalCode !== null) return done();
    running.child.once('exit', () => done());
    running.child.kill('SIGKILL');
  });
}

describe('durability on the embedded database (kill -9)', function () {
  this.timeout(240_000);
  let dataDir: string;
  let running: Running | undefined;

  before(function () {
    if (process.env.DATABASE_URL) this.skip();
    dataDir = mkdtempSync(join(tmpdir(), 'music-library-kill9-'));
  });
  after(async () => {
    if (running) await kill9(running);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write: a registered user and a started task survive kill -9', async () => {
    const port = await freePort();
    running = await startService(dataDir, port);

    const admin = new ApiClient(running.url);
    expect((await admin.post('/auth/login', { username: 'admin', password: ADMIN_PASSWORD })).status).to.equal(200);
    const rebuild = await admin.post('/admin/canonical/rebuild');
    expect(rebuild.status).to.equal(200);
    const taskId = rebuild.body.task_id as string;

    const registered = await new ApiClient(running.url).post('/auth/register', { username: 'durable-dora', password: 'dora-password-1' });
    expect(registered.status, JSON.stringify(registered.body)).to.be.within(200, 299);
    await kill9(running);

    running = await startService(dataDir, port);
    const dora = new ApiClient(running.url);
    const login = await dora.post('/auth/login', { username: 'durable-dora', password: 'dora-password-1' });
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
    expect(login.body.username).to.equal('durable-dora');

    const again = new ApiClient(running.url);
    expect((await again.post('/auth/login', { username: 'admin', password: ADMIN_PASSWORD })).status).to.equal(200);
    // Either it finished before the kill, or the restart resolved it (a rebuild resumes and
    // completes; a task that cannot resume is recorded failed): never left running.
    const settled = async () => {
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(100)) {
        const task = await again.get(`/admin/task-history/${taskId}`);
        if (task.status !== 200 || task.body.status !== 'running') return task;
      }
      throw new Error(`task ${taskId} still running 30 s after the restart`);
    };
    const task = await settled();
    expect(task.status).to.equal(200);
    expect(task.body).to.include({ task_id: taskId, name: 'canonical.rebuild', started_by: 'admin' });
    expect(task.body.status).to.be.oneOf(['completed', 'failed']);
  });
});
