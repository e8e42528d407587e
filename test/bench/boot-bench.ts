/**
 * `npm run bench:boot`: what a start costs. `npm start` on a fresh DATA_DIR (first start: database
 * created, migrations, first admin) and again on the same one (restart), each timed from the spawn to
 * the first 200 of GET /healthz, beside a bare PGlite open of the same data directory in a Node
 * process of its own (the floor any start pays); then the idle service's resident memory.
 * Goals of the issue: restart within 1.5x the bare open, first start within 3x, idle RSS at most 250 MB.
 *
 * On a shared machine one sample of either side can be off by a factor of two, so the restart and
 * the bare open are taken BENCH_ROUNDS times (default 5), alternately, and their medians compared;
 * the first start (once per data directory) is compared with the bare open's median.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServiceProcess, buildOnce, freePort, npmStart, repoRoot } from '../support/service-process.ts';
import { envInt, fmtMs, fmtRatio, percentile, table } from './report.ts';

const IDLE_MS = 5000;
const ROUNDS = envInt('BENCH_ROUNDS', 5);

async function firstOk(url: string, since: number, limitMs: number): Promise<number> {
  while (Date.now() - since < limitMs) {
    try {
      if ((await fetch(url)).status === 200) return Date.now() - since;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no 200 from ${url} within ${limitMs} ms`);
}

async function timedStart(dataDir: string, port: number): Promise<{ ms: number; service: ServiceProcess }> {
  const since = Date.now();
  const service = npmStart({ PORT: String(port), DATA_DIR: dataDir, ADMIN_PASSWORD: 'boot-bench-password', LOG_LEVEL: 'warn' });
  const ms = await firstOk(`http://127.0.0.1:${port}/healthz`, since, 300_000);
  return { ms, service };
}

async function stop(service: ServiceProcess): Promise<number> {
  const since = Date.now();
  service.child.kill('SIGTERM');
  const code = await service.exited;
  if (code !== 0) throw new Error(`the service exited ${code} on SIGTERM:\n${service.output()}`);
  return Date.now() - since;
}

/** Spawn to exit of `node` opening the data directory with PGlite and running one query. */
function bareOpen(dataDir: string): Promise<number> {
  const script = `const { PGlite } = await import('@electric-sql/pglite'); const db = new PGlite(${JSON.stringify(join(dataDir, 'pgdata'))}); await db.query('select 1'); await db.close();`;
  const since = Date.now();
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('exit', (code) => (code === 0 ? done(Date.now() - since) : failed(new Error(`bare open exited ${code}`))));
  });
}

/** The resident memory of the process npm started (Linux /proc). */
function rssMb(service: ServiceProcess): number {
  const npmPid = service.child.pid!;
  const [nodePid] = readFileSync(`/proc/${npmPid}/task/${npmPid}/children`, 'utf8').trim().split(/\s+/);
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${nodePid}/status`, 'utf8'))![1]!;
  return Number(kb) / 1024;
}

const dataDir = join(mkdtempSync(join(tmpdir(), 'music-library-boot-')), 'data');
try {
  // A build left over from other sources would be rebuilt inside the first timed start.
  buildOnce();
  const port = await freePort();
  const first = await timedStart(dataDir, port);
  const firstStop = await stop(first.service);
  const restarts: number[] = [];
  const bares: number[] = [];
  let rss = 0;
  let restartStop = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const restart = await timedStart(dataDir, port);
    restarts.push(restart.ms);
    if (round === 0) {
      await new Promise((r) => setTimeout(r, IDLE_MS));
      rss = rssMb(restart.service);
    }
    restartStop = await stop(restart.service);
    bares.push(await bareOpen(dataDir));
  }
  const bare = percentile(bares, 50);
  const restart = percentile(restarts, 50);
  const samples = (ms: number[]) => (ms.length > 1 ? ` (${ms.map(fmtMs).join(', ')})` : '');

  console.log(`# Start-up cost (${new Date().toISOString()}, node ${process.version})`);
  console.log(
    table(
      ['measure', 'value', 'ratio to bare open', 'goal'],
      [
        ['bare PGlite open (spawn to exit, median)', `${fmtMs(bare)} ms${samples(bares)}`, '1x', ''],
        ['first start (spawn to first 200)', `${fmtMs(first.ms)} ms`, fmtRatio(first.ms / bare), 'within 3x'],
        ['restart (spawn to first 200, median)', `${fmtMs(restart)} ms${samples(restarts)}`, fmtRatio(restart / bare), 'within 1.5x'],
        [`idle RSS after ${IDLE_MS / 1000} s`, `${rss.toFixed(0)} MB`, '', 'at most 250 MB'],
        ['stop on SIGTERM (first, last restart)', `${fmtMs(firstStop)} ms, ${fmtMs(restartStop)} ms`, '', ''],
      ],
    ),
  );
} finally {
  rmSync(join(dataDir, '..'), { recursive: true, force: true });
}
