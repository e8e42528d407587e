import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../infra/config.ts';
import { createService } from '../../infra/service.ts';
import { setLogLevel } from '../../infra/logger.ts';
import { ApiClient, type TestApp } from '../support/api.ts';
import { type ScrobblerFake, startScrobblerFake } from '../fakes/scrobbler/server.ts';
import { HttpProbe } from './probe.ts';
import { importedListener } from './scrobble-import.ts';
import { type LatencyStats, latencyStats } from './latency-bench.ts';

export interface ImportLatencySizes {
  /** Scrobbles in the history the import pages through. */
  scrobbles: number;
  idleRequests: number;
}

export interface ImportLatencyResult {
  scrobbles: number;
  importSeconds: number;
  idle: LatencyStats;
  importing: LatencyStats;
  /** The same import on a service of its own with no request meanwhile. */
  alone: { scrobbles: number; seconds: number };
  /** Then the same history for a second user on that service: every name is known by then. */
  known: { scrobbles: number; seconds: number };
}

const PROBE_PATH = '/auth/me';

/**
 * The embedded default as deployed (the real service on PGlite in a temp DATA_DIR): a user's bulk
 * import alone (its rate), and the same history again for a second user (its names all known by
 * then: the rate of a long history, whose names repeat), then on another fresh service a cheap GET's latency idle and while the
 * same import pages through the scrobbler fake and stamps each page with canonical ids. The history
 * mixes tracks seen again and again with new ones.
 */
export async function benchImportLatency(sizes: ImportLatencySizes, note: (msg: string) => void): Promise<ImportLatencyResult> {
  setLogLevel('silent');
  const fake = await startScrobblerFake();
  try {
    const history = { count: sizes.scrobbles, newestUts: Math.floor(Date.now() / 1000) - 3600, stepSeconds: 180, artists: 200, albumsPerArtist: 4, tracksPerAlbum: 10 };
    const [alone, known] = await onFreshService(fake, async (app) => [
      await importedListener(app, fake, 'alone', history, note),
      await importedListener(app, fake, 'again', history, note),
    ]);
    note(`import alone: ${alone.imported} scrobbles in ${alone.seconds.toFixed(1)} s; of the same names again: ${known.seconds.toFixed(1)} s`);
    return await onFreshService(fake, async (app, url) => {
      const watcher = app.client();
      const registered = await watcher.post('/auth/register', { username: 'watcher', password: 'bench-watcher-password' });
      if (registered.status !== 200) throw new Error(`register answered ${registered.status}`);
      const probe = new HttpProbe(url + PROBE_PATH, { cookie: `media_session=${watcher.cookie('media_session')}` });
      try {
        await probe.run(200);
        const idle = await probe.run(sizes.idleRequests);
        note(`idle: ${idle.length} sequential GET ${PROBE_PATH}`);
        const running = probe.runUntilStopped();
        const from = Date.now();
        const imported = await importedListener(app, fake, 'listener', history, note);
        const to = Date.now();
        const during = (await running.stop()).filter((s) => s.sentAt >= from && s.sentAt <= to);
        note(`import: ${imported.imported} scrobbles in ${imported.seconds.toFixed(1)} s, ${during.length} GET ${PROBE_PATH} meanwhile`);
        return {
          scrobbles: imported.imported,
          importSeconds: imported.seconds,
          idle: latencyStats(idle),
          importing: latencyStats(during),
          alone: { scrobbles: alone.imported, seconds: alone.seconds },
          known: { scrobbles: known.imported, seconds: known.seconds },
        };
      } finally {
        await probe.close();
      }
    });
  } finally {
    await fake.close();
  }
}

/** The real service on PGlite in a temp DATA_DIR, talking to the scrobbler fake; removed afterwards. */
async function onFreshService<T>(fake: ScrobblerFake, work: (app: TestApp, url: string) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ml-bench-import-'));
  const service = await createService(
    loadConfig({ ...fake.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'bench-admin-password', PASSWORD_SCRYPT_N: '1024', NODE_ENV: 'test', LOG_LEVEL: 'silent', UPSTREAM_PACING: 'off' }),
  );
  try {
    const { url } = await service.start();
    if (!url) throw new Error('the service did not listen');
    return await work({ url, ctx: service.ctx, client: () => new ApiClient(url), close: async () => {} }, url);
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
