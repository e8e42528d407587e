import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../infra/config.ts';
import { createService } from '../../infra/service.ts';
import { setLogLevel } from '../../infra/logger.ts';
import type { AppendResult } from '../../infra/eventstore/event-store.ts';
import { taskBatch } from './events.ts';
import { HttpProbe, type Sample } from './probe.ts';
import { now, percentile, rate, timed } from './report.ts';

export interface LatencySizes {
  /** Task events seeded into the log before measuring. */
  seed: number;
  /** Sequential idle requests. */
  idleRequests: number;
}

export interface LatencyStats {
  count: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
}

export interface LatencyResult {
  seeded: number;
  seedMs: number;
  settleMs: number;
  idle: LatencyStats;
  rebuild: LatencyStats;
  rebuildSeconds: number;
  rebuildEvents: number;
  rebuildWallMs: number;
  /** Samples sent between the POST and TaskStarted or after TaskFinished (not counted). */
  outside: number;
}

const ADMIN_PASSWORD = 'bench-admin-password';
const PROBE_PATH = '/auth/me';

/**
 * The embedded default as deployed: the real service on PGlite in a temp DATA_DIR. A cheap GET's
 * latency idle, then while `POST /admin/canonical/rebuild` replays the log.
 */
export async function benchLatency(sizes: LatencySizes, note: (msg: string) => void): Promise<LatencyResult> {
  setLogLevel('silent');
  const dataDir = mkdtempSync(join(tmpdir(), 'ml-bench-service-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    ADMIN_USERNAME: 'admin',
    ADMIN_PASSWORD,
    PASSWORD_SCRYPT_N: '1024',
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    UPSTREAM_PACING: 'off',
  });
  const service = await createService(config);
  let probe: HttpProbe | undefined;
  try {
    const { url } = await service.start();
    if (!url) throw new Error('the service did not listen');
    const cookie = await login(url);
    const ctx = service.ctx;

    // Seed through the store the service uses, with its projector running live.
    const { ms: seedMs, value: last } = await timed(async () => {
      let result: AppendResult | undefined;
      for (let n = 0; n < sizes.seed; n += 100) result = await ctx.store.appendMany(taskBatch(Math.min(100, sizes.seed - n), 'admin'));
      return result!;
    });
    note(`seeded ${sizes.seed} task events in ${(seedMs / 1000).toFixed(1)} s`);
    const { ms: settleMs } = await timed(async () => {
      if (!(await ctx.projections!.waiters.waitFor(last.position, 10 * 60_000))) throw new Error('projections did not catch up');
    });
    note(`projections settled ${(settleMs / 1000).toFixed(1)} s after the last append`);

    probe = new HttpProbe(url + PROBE_PATH, { cookie });
    const warm = await probe.run(200);
    if (warm.some((s) => s.status !== 200)) throw new Error(`GET ${PROBE_PATH} answered ${warm.find((s) => s.status !== 200)!.status}`);
    const idle = await probe.run(sizes.idleRequests);
    note(`idle: ${idle.length} sequential GET ${PROBE_PATH}`);

    const running = probe.runUntilStopped();
    const postedAt = now();
    const started = await post(url, '/admin/canonical/rebuild', cookie);
    const taskId = String(started.task_id);
    // The log, not the read model being rebuilt, says when the task ran.
    const window = await waitForOutcome(url, cookie, taskId, async () => {
      const events = await ctx.store.readStream(`task-${taskId}`);
      const first = events.find((e) => e.type === 'TaskStarted');
      const end = events.find((e) => e.type === 'TaskFinished' || e.type === 'TaskFailed' || e.type === 'TaskCancelled');
      if (!first || !end) return undefined;
      if (end.type !== 'TaskFinished') throw new Error(`rebuild ended ${end.type}: ${JSON.stringify(end.data)}`);
      const data = end.data as { at: string; summary: { seconds?: number; events_replayed?: number } };
      return {
        from: Date.parse((first.data as { at: string }).at),
        to: Date.parse(data.at),
        seconds: Number(data.summary.seconds ?? Number.NaN),
        events: Number(data.summary.events_replayed ?? Number.NaN),
      };
    });
    const rebuildWallMs = now() - postedAt;
    const all = await running.stop();
    const during = all.filter((s) => s.sentAt >= window.from && s.sentAt <= window.to);
    note(`rebuild: ${during.length} GET ${PROBE_PATH} while it ran (${all.length - during.length} outside its window)`);
    return {
      seeded: sizes.seed,
      seedMs,
      settleMs,
      idle: latencyStats(idle),
      rebuild: latencyStats(during),
      rebuildSeconds: window.seconds,
      rebuildEvents: window.events,
      rebuildWallMs,
      outside: all.length - during.length,
    };
  } finally {
    await probe?.close();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function rebuildRate(result: LatencyResult): number {
  return rate(result.rebuildEvents, result.rebuildSeconds * 1000);
}

export function latencyStats(samples: Sample[]): LatencyStats {
  const ok = samples.filter((s) => s.status === 200).map((s) => s.ms);
  return {
    count: ok.length,
    p50: percentile(ok, 50),
    p99: percentile(ok, 99),
    max: ok.length ? Math.max(...ok) : Number.NaN,
    errors: samples.length - ok.length,
  };
}

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('media_session='));
  if (!cookie) throw new Error('login set no media_session cookie');
  return cookie.split(';')[0]!;
}

async function post(url: string, path: string, cookie: string): Promise<Record<string, unknown>> {
  const res = await fetch(url + path, { method: 'POST', headers: { cookie } });
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

/**
 * Polls the task as a client would (`GET /admin/task-history/{id}` until completed) and returns the
 * window the log recorded for it.
 */
async function waitForOutcome<T>(url: string, cookie: string, taskId: string, fromLog: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const res = await fetch(`${url}/admin/task-history/${taskId}`, { headers: { cookie } });
    const body = (await res.json()) as { status?: string };
    if (res.status === 200 && body.status !== 'running') {
      if (body.status !== 'completed') throw new Error(`rebuild task ${taskId} ended ${body.status}`);
      const window = await fromLog();
      if (window) return window;
    }
    if (Date.now() > deadline) throw new Error(`rebuild task ${taskId} still running after 10 minutes`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
