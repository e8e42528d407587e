/**
 * `npm run bench:canonical`: the canonical layer on the embedded default (the real service on
 * PGlite in a temp DATA_DIR). Reconciles BENCH_OBSERVATIONS synthetic observations (default
 * 100000) with reconcileMany in batches of BENCH_BATCH (default 500), beside a sample reconciled
 * one at a time; then GET /library/albums requests per second beside an express hello-world
 * served by the same process, probed by the same client (BENCH_REQUESTS each, default 2000).
 */
import type { Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { reconcile, reconcileMany } from '../../command/canonical/reconciler.ts';
import { loadConfig } from '../../infra/config.ts';
import { setLogLevel } from '../../infra/logger.ts';
import { createService } from '../../infra/service.ts';
import { HttpProbe, type Sample } from './probe.ts';
import { sessionCookie } from './session.ts';
import { envInt, fmtMs, fmtRate, fmtRatio, now, percentile, rate, table, timed } from './report.ts';
import { syntheticObservations } from './synthetic-observations.ts';

setLogLevel('silent');
const started = Date.now();
const note = (msg: string) => process.stderr.write(`  [${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${msg}\n`);
const total = envInt('BENCH_OBSERVATIONS', 100_000);
const batchSize = envInt('BENCH_BATCH', 500);
const requests = envInt('BENCH_REQUESTS', 2000);
const singleSample = Math.max(50, Math.min(1000, Math.round(total / 20)));
const PASSWORD = 'bench-admin-password';

const dataDir = mkdtempSync(join(tmpdir(), 'ml-bench-canonical-'));
const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_USERNAME: 'admin', ADMIN_PASSWORD: PASSWORD, PASSWORD_SCRYPT_N: '1024', NODE_ENV: 'test', LOG_LEVEL: 'silent', UPSTREAM_PACING: 'off' });
const service = await createService(config);
const hello = await helloWorld();
const probes: HttpProbe[] = [];
try {
  const { url } = await service.start();
  const { ctx } = service;
  const observations = syntheticObservations(total + singleSample);
  const batched = observations.slice(0, total);
  const single = observations.slice(total);

  const batchRun = await timed(async () => {
    for (let i = 0; i < batched.length; i += batchSize) {
      await reconcileMany(ctx, batched.slice(i, i + batchSize), 'bench');
      if ((i / batchSize) % 20 === 0) note(`reconcileMany: ${Math.min(i + batchSize, batched.length)} / ${batched.length}`);
    }
  });
  // A re-sync: the mediaserver reports the first part of its library again, unchanged.
  const resync = batched.slice(0, Math.min(batched.length, Math.ceil(total * 0.6)));
  const resyncRun = await timed(async () => {
    for (let i = 0; i < resync.length; i += batchSize) await reconcileMany(ctx, resync.slice(i, i + batchSize), 'bench');
  });
  note(`re-sync: ${resync.length} unchanged observations`);
  const singleRun = await timed(async () => {
    for (const o of single) await reconcile(ctx, o, 'bench');
  });
  note(`one at a time: ${single.length} observations`);
  const counts = await ctx.db.selectFrom('canonical_docs').select(['kind', (eb) => eb.fn.countAll<number>().as('n')]).where('tombstoned', '=', false).groupBy('kind').execute();
  const events = await ctx.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();

  const cookie = await sessionCookie(url!, 'admin', PASSWORD);
  const paths = ['/library/albums', '/library/albums?sort=name&filter=playable&page=20', '/library/albums?genre=jazz&sort=source_count'];
  const library = [];
  for (const path of paths) library.push({ path, samples: await probe(url! + path, { cookie }) });
  const helloSamples = await probe(hello.url, {});

  // ---- report ----
  console.log(`# Canonical layer benchmark (${new Date().toISOString()})`);
  console.log(`node ${process.version}, ${os.cpus().length} CPU (${os.cpus()[0]?.model.trim() ?? '?'}), embedded PGlite`);
  console.log(`live entities: ${counts.map((c) => `${c.n} ${c.kind}s`).join(', ')}; ${events.n} events in the log\n`);
  const batchRate = rate(batched.length, batchRun.ms);
  const singleRate = rate(single.length, singleRun.ms);
  console.log(
    table(
      ['reconcile', 'observations', 'seconds', 'observations/s', 'vs one at a time'],
      [
        [`reconcileMany, batches of ${batchSize}`, String(batched.length), (batchRun.ms / 1000).toFixed(2), fmtRate(batchRate), fmtRatio(batchRate / singleRate)],
        ['reconcileMany, re-sync of unchanged observations', String(resync.length), (resyncRun.ms / 1000).toFixed(2), fmtRate(rate(resync.length, resyncRun.ms)), fmtRatio(rate(resync.length, resyncRun.ms) / singleRate)],
        ['reconcile, one at a time', String(single.length), (singleRun.ms / 1000).toFixed(2), fmtRate(singleRate), '1'],
      ],
    ),
  );
  console.log('\n(each observation is a track carrying its artist and album: three entities matched per observation)\n');
  const helloRps = rps(helloSamples);
  console.log(
    table(
      ['sequential GET', 'requests', 'requests/s', 'p50 ms', 'p99 ms', 'vs hello-world'],
      [...library, { path: 'express hello-world (same process)', samples: helloSamples }].map(({ path, samples }) => [
        path, String(samples.length), fmtRate(rps(samples)), fmtMs(percentile(samples.map((s) => s.ms), 50)), fmtMs(percentile(samples.map((s) => s.ms), 99)), fmtRatio(rps(samples) / helloRps),
      ]),
    ),
  );
  console.log(`\ntotal bench time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  for (const p of probes) await p.close();
  await new Promise<void>((resolve) => hello.server.close(() => resolve()));
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

async function probe(target: string, headers: Record<string, string>): Promise<Sample[]> {
  const p = new HttpProbe(target, headers);
  probes.push(p);
  const warm = await p.run(100);
  const failed = warm.find((s) => s.status !== 200);
  if (failed) throw new Error(`GET ${target} answered ${failed.status}`);
  const t0 = now();
  const samples = await p.run(requests);
  note(`${samples.length} GET ${target.replace(/^http:\/\/[^/]+/, '')} in ${((now() - t0) / 1000).toFixed(1)} s`);
  return samples;
}

/** Requests per second of a sequential run: the sum of its latencies is the time it took. */
function rps(samples: Sample[]): number {
  return rate(samples.filter((s) => s.status === 200).length, samples.reduce((sum, s) => sum + s.ms, 0));
}

async function helloWorld(): Promise<{ server: Server; url: string }> {
  const app = express();
  app.get('/', (_req, res) => void res.json({ hello: 'world' }));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  return { server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/` };
}
