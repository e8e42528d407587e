import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..', '..');

/** A port nobody listens on right now (the service does not print an ephemeral one reliably). */
export function freePort(): Promise<number> {
  return new Promise((done, failed) => {
    const server = createServer();
    server.once('error', failed);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

let built = false;

/**
 * `npm start` runs the build in dist/, rebuilding it first when a source is newer: done here once
 * per test process, so that a rebuild after an edit is not counted in a test's timings or timeouts.
 */
export function buildOnce(): void {
  if (built) return;
  execFileSync(process.execPath, [resolve(repoRoot, 'infra', 'build', 'fresh-build.mjs')], { cwd: repoRoot, stdio: 'inherit' });
  built = true;
}

export interface ServiceProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or signal) once the process is gone. */
  exited: Promise<number | string>;
  /** Resolves once the output matches, fails after `ms` or when the process exits first. */
  waitFor(pattern: RegExp, ms: number): Promise<RegExpExecArray>;
}

/**
 * `npm start` as an operator runs it, in a clean environment plus `env` (cheap password hashing,
 * no pacing); the process is the npm one, as a service manager would hold it.
 */
export function npmStart(env: Record<string, string>): ServiceProcess {
  buildOnce();
  return tracked(spawn('npm', ['start', '--silent'], { cwd: repoRoot, env: { ...baseEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** What `npm start` runs, without npm between: `kill -9` of this process is the death of the service. */
export function nodeStart(env: Record<string, string>): ServiceProcess {
  buildOnce();
  const args = ['--import', './infra/build/fresh-build.mjs', 'dist/start/main.js'];
  return tracked(spawn(process.execPath, args, { cwd: repoRoot, env: { ...baseEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
}

function baseEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', PASSWORD_SCRYPT_N: '1024', NODE_ENV: 'test', UPSTREAM_PACING: 'off' };
}

function tracked(child: ChildProcess): ServiceProcess {
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | string>((done) => child.once('exit', (code, signal) => done(code ?? signal ?? 'unknown')));
  return {
    child,
    output: () => output,
    exited,
    waitFor(pattern, ms) {
      return new Promise((done, failed) => {
        const check = () => {
          const match = pattern.exec(output);
          if (!match) return;
          finish();
          done(match);
        };
        const timer = setTimeout(() => {
          finish();
          failed(new Error(`no ${pattern} within ${ms} ms:\n${output}`));
        }, ms);
        const finish = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then((code) => {
          if (!listeners.has(check)) return;
          finish();
          failed(new Error(`exited (${code}) before ${pattern}:\n${output}`));
        });
        check();
      });
    },
  };
}
