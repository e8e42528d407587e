/**
 * `npm run bench:dashboard`: the scrobbler dashboard's latency for a user with 1,000 scrobbles and
 * for one with BENCH_SCROBBLES (default 1,000,000), in the same run on the embedded default (the
 * real service on PGlite in a temp DATA_DIR). The read models are aggregates kept by the projector,
 * so the two should be close: the report prints their ratio.
 *
 * Scrobbles are appended as the importer writes them (ScrobblesImported pages of 200) with the
 * projector running live; BENCH_REQUESTS sets the sequential requests per endpoint (default 300).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { accounts } from '../../command/auth/accounts.ts';
import { loadConfig } from '../../infra/config.ts';
import type { AppContext } from '../../infra/context.ts';
import { setLogLevel } from '../../infra/logger.ts';
import { createService } from '../../infra/service.ts';
import { userStream } from '../../shared/streams.ts';
import { HttpProbe, type Sample } from './probe.ts';
import { importHistory } from './scrobble-history.ts';
import { envInt, fmtMs, fmtRate, fmtRatio, percentile, table } from './report.ts';

setLogLevel('silent');
const started = Date.now();
const note = (msg: string) => process.stderr.write(`  [${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s] ${msg}\n`);

const SMALL = 1000;
const large = envInt('BENCH_SCROBBLES', 1_000_000);
const requests = envInt('BENCH_REQUESTS', 300);
const ENDPOINTS = ['/scrobbler/me/dashboard', '/scrobbler/me/dashboard?window_days=30', '/scrobbler/me/rediscover', '/scrobbler/me/new-artists'];

interface Stats {
  p50: number;
  p99: number;
  errors: number;
}

const dataDir = mkdtempSync(join(os.tmpdir(), 'ml-bench-dashboard-'));
const service = await createService(
  loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'bench-admin-password', PASSWORD_SCRYPT_N: '1024', LOG_LEVEL: 'silent', UPSTREAM_PACING: 'off' }),
);
try {
  const { url } = await service.start();
  if (!url) throw new Error('the service did not listen');
  const ctx = service.ctx;
  const small = await listener(ctx, url, 'small');
  const big = await listener(ctx, url, 'large');

  const smallImport = await importHistory(ctx, 'small', SMALL, note);
  const bigImport = await importHistory(ctx, 'large', large, note);
  note(`imported ${SMALL} + ${large} scrobbles`);

  const results: { path: string; small: Stats; large: Stats }[] = [];
  for (const path of ENDPOINTS) {
    const s = await measure(url + path, small);
    const l = await measure(url + path, big);
    results.push({ path, small: s, large: l });
    note(`${path}: p50 ${fmtMs(s.p50)} ms vs ${fmtMs(l.p50)} ms`);
  }

  console.log(`# Scrobbler dashboard benchmark (${new Date().toISOString()})`);
  console.log(`node ${process.version}, ${os.cpus().length} CPU (${os.cpus()[0]?.model.trim() ?? '?'}), embedded PGlite`);
  console.log(`sizes: ${SMALL} vs ${large} scrobbles of one user each (BENCH_SCROBBLES=${large}), ${requests} sequential requests per endpoint and size\n`);
  console.log(
    table(
      ['endpoint', `p50 ms (${SMALL})`, `p99 ms (${SMALL})`, `p50 ms (${large})`, `p99 ms (${large})`, 'p50 ratio', 'p99 ratio', 'errors'],
      results.map((r) => [
        r.path,
        fmtMs(r.small.p50),
        fmtMs(r.small.p99),
        fmtMs(r.large.p50),
        fmtMs(r.large.p99),
        fmtRatio(r.large.p50 / r.small.p50),
        fmtRatio(r.large.p99 / r.small.p99),
        String(r.small.errors + r.large.errors),
      ]),
    ),
  );
  console.log(
    `\nimport through the live projector: ${fmtRate(smallImport.rate)} scrobbles/s (${SMALL}), ${fmtRate(bigImport.rate)} scrobbles/s (${large}); ` +
      `${bigImport.days} days and ${bigImport.artists} artists in the large history`,
  );
  console.log(`total bench time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

/** A viewer linked to a scrobbler account of the same name; returns its session cookie. */
async function listener(ctx: AppContext, url: string, username: string): Promise<string> {
  const password = `${username}-bench-password`;
  await accounts(ctx).register(username, password, 'viewer', null);
  const at = new Date().toISOString();
  const linked = await ctx.store.append(userStream(username), [{ type: 'ScrobblerLinked', data: { username, scrobbler_username: username, credential_id: 'bench', at } }], 'any');
  await ctx.settle(linked.position);
  const res = await fetch(`${url}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  if (res.status !== 200) throw new Error(`login of ${username} answered ${res.status}`);
  return res.headers.getSetCookie().find((c) => c.startsWith('media_session='))!.split(';')[0]!;
}

async function measure(target: string, cookie: string): Promise<Stats> {
  const probe = new HttpProbe(target, { cookie });
  try {
    const warm = await probe.run(20);
    const failed = warm.find((s) => s.status !== 200);
    if (failed) throw new Error(`GET ${target} answered ${failed.status}`);
    const samples: Sample[] = await probe.run(requests);
    const ok = samples.filter((s) => s.status === 200).map((s) => s.ms);
    return { p50: percentile(ok, 50), p99: percentile(ok, 99), errors: samples.length - ok.length };
  } finally {
    await probe.close();
  }
}
