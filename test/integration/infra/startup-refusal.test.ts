import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'chai';

const repoRoot = resolve(import.meta.dirname, '..', '..', '..');

/** `npm start` as an operator runs it, with `env` on top of a clean environment; resolves once it exits. */
function start(env: Record<string, string>, dataDir: string): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/main.ts'], { cwd: repoRoot, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((done) =>
    child.once('exit', (code) => {
      clearTimeout(killer);
      done({ code, stderr, stdout });
    }),
  );
}

describe('startup: the service refuses weak secrets and a weak password hash, in one line each', function () {
  this.timeout(90_000);
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'music-library-refusal-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('given a short JWT_SECRET and SECRET_KEY and a PASSWORD_SCRYPT_N below the default without NODE_ENV=test, then it exits 1 with one line naming each, before touching DATA_DIR', async () => {
    const env = { JWT_SECRET: 'short-jwt-secret', SECRET_KEY: 'short-secret-key', PASSWORD_SCRYPT_N: '1024' };
    const { code, stderr, stdout } = await start(env, join(dataDir, 'data'));
    expect(code).to.equal(1);
    const lines = stderr.trim().split('\n');
    expect(lines).to.have.length(3);
    expect(lines[0]).to.match(/^refusing to start: JWT_SECRET must be at least 32 bytes/);
    expect(lines[1]).to.match(/^refusing to start: SECRET_KEY must be at least 32 bytes/);
    expect(lines[2]).to.match(/^refusing to start: PASSWORD_SCRYPT_N below the default 131072 \(2\^17\)/);
    expect(stderr + stdout, 'no stack trace').not.to.match(/\n\s+at /);
    expect(stderr + stdout, 'the secrets are not echoed').not.to.include('short-');
    expect(existsSync(join(dataDir, 'data'))).to.equal(false);
  });
});
