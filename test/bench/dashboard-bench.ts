/**
 * `npm run bench:dashboard`: imports BENCH_SCROBBLES (default 1,000,000) scrobbles from the
 * scrobbler fake through the real bulk-import task (link, POST bulk-import, poll the task), then
 * measures the dashboard's latency for that user and for one with 1,000 scrobbles in the same run,
 * on the embedded default (the real service on PGlite in a temp DATA_DIR). The read models are
 * aggregates kept by the projector, so the two should be close: the report prints their ratio.
 *
 * Both histories draw from BENCH_ARTISTS (default 2,000) artists × 4 albums × 10 tracks; BENCH_REQUESTS
 * sets the sequential requests per endpoint and size (default 300).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../infra/config.ts';
import { setLogLevel } from '../../infra/logger.ts';
import { createService } from '../../infra/service.ts';
import { ApiClient, type TestApp } from '../support/api.ts';
import { pollUntil } from '../support/scrobbler.ts';
import { startScrobblerFake } from '../fakes/scrobbler/server.ts';
import { HttpProbe, type Sample } from './probe.ts';
import { importedListener } from './scrobble-import.ts';
import { envInt, fmtMs, fmtRate, fmtRatio, percentile, table } from './report.ts';

setLogLevel('silent');
const started = Date.now();
const note = (msg: string) => process.stderr.write(`  [${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${msg}\n`);

const SMALL = 1000;
const large = envInt('BENCH_SCROBBLES', 1_000_000);
const requests = envInt('BENCH_REQUESTS', 300);
const mix = { artists: envInt('BENCH_ARTISTS', 2000), albumsPerArtist: 4, tracksPerAlbum: 10 };
const newestUts = Math.floor(Date.now() / 1000) - 3600;
// A one-day window holds the same 480 scrobbles for both users: what it costs beside the 30-day one
// tells the window's contents from the history's length.
const ENDPOINTS = [
  '/scrobbler/me/dashboard',
  '/scrobbler/me/dashboard?window_days=1',
  '/scrobbler/me/dashboard?window_days=30',
  '/scrobbler/me/rediscover',
  '/scrobbler/me/new-artists',
];

interface Stats {
  p50: number;
  p95: number;
  p99: number;
  errors: number;
}

const fake = await startScrobblerFake();
const dataDir = mkdtempSync(join(os.tmpdir(), 'ml-bench-dashboard-'));
const service = await createService(
  loadConfig({ ...fake.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'bench-admin-password', PASSWORD_SCRYPT_N: '1024', NODE_ENV: 'test', LOG_LEVEL: 'silent', UPSTREAM_PACING: 'off' }),
);
try {
  const { url } = await service.start();
  if (!url) throw new Error('the service did not listen');
  const app: TestApp = { url, ctx: service.ctx, client: () => new ApiClient(url), close: async () => {} };
  // Both listen every 3 minutes, the small user for two days, the large one for as long as its count needs.
  const small = await importedListener(app, fake, 'small', { count: SMALL, newestUts, stepSeconds: 180, ...mix }, note);
  note(`small: ${SMALL} scrobbles in ${small.seconds.toFixed(1)} s`);
  const big = await importedListener(app, fake, 'large', { count: large, newestUts, stepSeconds: 180, ...mix }, note);
  note(`large: ${large} scrobbles in ${big.seconds.toFixed(1)} s (${fmtRate(big.rate)}/s)`);

  const results: { path: string; small: Stats; large: Stats }[] = [];
  for (const path of ENDPOINTS) {
    const s = await measure(url + path, small.client);
    const l = await measure(url + path, big.client);
    results.push({ path, small: s, large: l });
    note(`${path}: p50 ${fmtMs(s.p50)} ms vs ${fmtMs(l.p50)} ms`);
  }

  console.log(`# Scrobbler import and dashboard benchmark (${new Date().toISOString()})`);
  console.log(`node ${process.version}, ${os.cpus().length} CPU (${os.cpus()[0]?.model.trim() ?? '?'}), embedded PGlite, scrobbler fake on loopback`);
  console.log(
    `sizes: ${SMALL} vs ${large} scrobbles (BENCH_SCROBBLES), each over ${mix.artists} artists × ${mix.albumsPerArtist} albums × ${mix.tracksPerAlbum} tracks ` +
      `(${mix.artists * mix.albumsPerArtist * mix.tracksPerAlbum} distinct tracks); ${requests} sequential requests per endpoint and size\n`,
  );
  console.log(
    `bulk import from the fake: ${fmtRate(big.rate)} scrobbles/s (${large} in ${big.seconds.toFixed(1)} s, ${big.imported} imported); ` +
      `${fmtRate(small.rate)} scrobbles/s for ${SMALL}\n`,
  );
  const row = (s: Stats) => [fmtMs(s.p50), fmtMs(s.p95), fmtMs(s.p99)];
  console.log(
    table(
      ['endpoint', `p50 (${SMALL})`, `p95 (${SMALL})`, `p99 (${SMALL})`, `p50 (${large})`, `p95 (${large})`, `p99 (${large})`, 'p50 ratio', 'p95 ratio', 'errors'],
      results.map((r) => [r.path, ...row(r.small), ...row(r.large), fmtRatio(r.large.p50 / r.small.p50), fmtRatio(r.large.p95 / r.small.p95), String(r.small.errors + r.large.errors)]),
    ),
  );
  console.log(`\nlatencies in ms; total bench time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await service.stop();
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
}

async function measure(target: string, client: ApiClient): Promise<Stats> {
  // The dashboard answers `building` until its projector has caught up with the import.
  await pollUntil(() => client.get('/scrobbler/me/dashboard'), (r) => r.status === 200 && r.body.state === 'ready', 10 * 60_000);
  const probe = new HttpProbe(target, { cookie: `media_session=${client.cookie('media_session')}` });
  try {
    const warm = await probe.run(20);
    const failed = warm.find((s) => s.status !== 200);
    if (failed) throw new Error(`GET ${target} answered ${failed.status}`);
    const samples: Sample[] = await probe.run(requests);
    const ok = samples.filter((s) => s.status === 200).map((s) => s.ms);
    return { p50: percentile(ok, 50), p95: percentile(ok, 95), p99: percentile(ok, 99), errors: samples.length - ok.length };
  } finally {
    await probe.close();
  }
}
