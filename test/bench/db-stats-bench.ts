/**
 * `npm run bench:db-stats`: GET /admin/db-stats on the embedded default (PGlite in a temp
 * DATA_DIR), first over a fresh database, then over a large one, each time beside trivial GETs
 * answered by the same process and probed by the same client (/healthz: no database; /auth/me: the
 * session only), and beside one full count of the log: what a naive dashboard would pay on every
 * request. BENCH_EVENTS sizes the large log (default 1000000); the read models scale with it
 * (scrobbles half of it, canonical entities a tenth). BENCH_REQUESTS GETs each (default 300).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../../infra/config.ts';
import { openPGlite } from '../../infra/db/create-db.ts';
import { migrate } from '../../infra/db/migrations/index.ts';
import { setLogLevel } from '../../infra/logger.ts';
import { createService } from '../../infra/service.ts';
import { type SeedSizes, seedLargeDatabase } from './db-stats-seed.ts';
import { HttpProbe, type Sample } from './probe.ts';
import { envInt, fmtMs, fmtRatio, percentile, table, timed } from './report.ts';
import { sessionCookie } from './session.ts';

setLogLevel('silent');
const started = Date.now();
const note = (msg: string) => process.stderr.write(`  [${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${msg}\n`);
const events = envInt('BENCH_EVENTS', 1_000_000);
const requests = envInt('BENCH_REQUESTS', 300);
const PASSWORD = 'bench-admin-password';
const PATHS = [
  { path: '/admin/db-stats', label: '/admin/db-stats', session: true },
  { path: '/auth/me', label: '/auth/me (session only)', session: true },
  { path: '/healthz', label: '/healthz (no database)', session: false },
];

interface Run {
  label: string;
  events: number;
  p50: number[];
  p99: number[];
  fullCountMs: number;
}

/** The service over a data directory (seeded first when `sizes` is given): each path probed in turn. */
async function measure(label: string, sizes: SeedSizes | undefined): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ml-bench-db-stats-'));
  const probes: HttpProbe[] = [];
  try {
    if (sizes) {
      const seeded = await timed(async () => {
        const handle = await openPGlite({ dataDir: join(dataDir, 'pgdata') });
        await migrate(handle.db);
        await seedLargeDatabase(handle.db, sizes);
        await handle.close();
      });
      note(`${label}: seeded ${sizes.events} events, ${sizes.scrobbles} scrobbles, ${sizes.entities} entities in ${(seeded.ms / 1000).toFixed(1)} s`);
    }
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: PASSWORD, PASSWORD_SCRYPT_N: '1024', NODE_ENV: 'test', LOG_LEVEL: 'silent', UPSTREAM_PACING: 'off' });
    const service = await createService(config);
    try {
      const { url } = await service.start();
      const cookie = await sessionCookie(url!, 'admin', PASSWORD);
      const samples: Sample[][] = [];
      for (const { path, session } of PATHS) {
        const probe = new HttpProbe(url + path, session ? { cookie } : {});
        probes.push(probe);
        const failed = (await probe.run(20)).find((s) => s.status !== 200);
        if (failed) throw new Error(`GET ${path} answered ${failed.status}`);
        samples.push(await probe.run(requests));
        note(`${label}: ${requests} GET ${path}`);
      }
      const fullCount = await timed(() => sql`select count(*) from events`.execute(service.ctx.db));
      const logged = (await (await fetch(`${url}/admin/db-stats`, { headers: { cookie } })).json()) as { event_log: { events: number } };
      const ms = (s: Sample[]) => s.map((x) => x.ms);
      return { label, events: logged.event_log.events, p50: samples.map((s) => percentile(ms(s), 50)), p99: samples.map((s) => percentile(ms(s), 99)), fullCountMs: fullCount.ms };
    } finally {
      for (const p of probes) await p.close();
      await service.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const fresh = await measure('fresh database', undefined);
const large = await measure('large database', { events, scrobbles: Math.round(events / 2), entities: Math.round(events / 10), users: 50 });

console.log(`# db-stats benchmark (${new Date().toISOString()})`);
console.log(`node ${process.version}, ${os.cpus().length} CPU (${os.cpus()[0]?.model.trim() ?? '?'}), load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, embedded PGlite (data dir)\n`);
const rows: string[][] = [];
for (const run of [fresh, large]) {
  for (const [i, { label }] of PATHS.entries()) {
    rows.push([`${run.label} (${run.events} events)`, label, fmtMs(run.p50[i]!), fmtMs(run.p99[i]!), fmtRatio(run.p50[i]! / run.p50[2]!)]);
  }
}
console.log(table(['database', `sequential GET, ${requests} each`, 'p50 ms', 'p99 ms', 'p50 vs /healthz'], rows, [false, false, true, true, true]));
console.log(`\ndb-stats p50, large vs fresh database: ${fmtRatio(large.p50[0]! / fresh.p50[0]!)} (healthz: ${fmtRatio(large.p50[2]! / fresh.p50[2]!)})`);
console.log(`one full count of the large log (select count(*) from events): ${fmtMs(large.fullCountMs)} ms, ${fmtRatio(large.fullCountMs / large.p50[0]!)} a db-stats request`);
console.log(`\ntotal bench time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
