import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '../infra/config.ts';
import { type Service, createService } from '../infra/service.ts';
import { type CatalogFake, startCatalogFake } from '../test/fakes/catalog/server.ts';
import { type MediaserverFake, mediaserverEnv, startMediaserverFake } from '../test/fakes/mediaserver/server.ts';
import { type ScrobblerFake, startScrobblerFake } from '../test/fakes/scrobbler/server.ts';
import { ApiClient } from '../test/support/api.ts';
import { linkThroughBrowser, pollUntil } from '../test/support/scrobbler.ts';
import { SAMPLE_ALBUM_COUNT, sampleHistory, stockLibrary } from './sample-library.ts';

export const DEMO_LOGIN = { username: 'demo', password: 'demo' } as const;
/** The fake server's music section (the fake numbers its sections like the recorded server). */
const MUSIC_SECTION = '5';
const LISTENER = 'demo_listener';
/** Written into the demo's directory: only a directory holding it is ever emptied. */
const MARKER = '.music-library-demo';

export interface DemoOptions {
  /** Emptied at every start; never DATA_DIR. */
  dataDir: string;
  port?: number;
  host?: string;
  logLevel?: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Where the steps are told (one line each). */
  say?: (line: string) => void;
}

export interface Demo {
  url: string;
  close(): Promise<void>;
}

/**
 * The service on the embedded database in `dataDir`, with loopback fakes of the media server,
 * scrobbler and catalog in this process. The demo account is the first-start admin; it links both
 * accounts, syncs the library and imports its history through the service's own HTTP API, as a user
 * would, and resolves once the library is playable and the dashboard is ready.
 */
export async function startDemo(options: DemoOptions): Promise<Demo> {
  const say = options.say ?? (() => {});
  const dataDir = freshDirectory(options.dataDir);
  const started: { close(): Promise<void> }[] = [];
  const closeAll = async () => {
    for (const part of started.reverse()) await part.close();
  };
  try {
    const mediaserver: MediaserverFake = await startMediaserverFake({ fixtures: false });
    started.push(mediaserver);
    stockLibrary(mediaserver.library);
    const scrobbler: ScrobblerFake = await startScrobblerFake();
    started.push(scrobbler);
    scrobbler.state.addUser(LISTENER, sampleHistory());
    const catalog: CatalogFake = await startCatalogFake();
    started.push(catalog);

    // Built from scratch, not from process.env: DATA_DIR and DATABASE_URL of a real installation never reach the demo.
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: String(options.port ?? 8000),
      HOST: options.host ?? '127.0.0.1',
      ADMIN_USERNAME: DEMO_LOGIN.username,
      ADMIN_PASSWORD: DEMO_LOGIN.password,
      UPSTREAM_PACING: 'off',
      LOG_LEVEL: options.logLevel ?? 'warn',
      ...mediaserverEnv(mediaserver),
      ...scrobbler.env,
      CATALOG_API_URL: catalog.url,
    });
    const service: Service = await createService(config);
    started.push({ close: () => service.stop() });
    const { url } = await service.start();
    say(`service on ${url} (data in ${dataDir})`);
    await setUp(new ApiClient(url!), mediaserver, scrobbler, say);
    return { url: url!, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

async function setUp(client: ApiClient, mediaserver: MediaserverFake, scrobbler: ScrobblerFake, say: (line: string) => void): Promise<void> {
  expectOk('login', await client.post('/auth/login', DEMO_LOGIN));

  // The PIN flow: the fake's account service approves the PIN as the user would on its page.
  expectOk('media server link start', await client.post('/mediaserver/me/auth/start'));
  mediaserver.linkPin();
  const finish = await client.post('/mediaserver/me/auth/finish');
  if (finish.body?.status !== 'completed') throw new Error(`media server link: ${JSON.stringify(finish.body)}`);
  say('media server linked');

  await runTask(client, 'library sync', await client.post(`/mediaserver/admin/libraries/${MUSIC_SECTION}/sync`));
  say('library synced');

  const linked = await linkThroughBrowser(client, scrobbler, LISTENER);
  if (linked.status >= 400) throw new Error(`scrobbler link: ${linked.status} ${JSON.stringify(linked.body)}`);
  say('scrobbler linked');

  await runTask(client, 'history import', await client.post('/scrobbler/me/scrobbles/bulk-import'));
  await waitFor('dashboard ready', () => client.get('/scrobbler/me/dashboard'), (r) => r.body?.state === 'ready');
  await waitFor('playable albums', () => client.get('/library/albums?filter=playable'), (r) => r.body?.total === SAMPLE_ALBUM_COUNT);
  say('history imported, dashboard ready');
}

async function runTask(client: ApiClient, what: string, start: { status: number; body: any }): Promise<void> {
  expectOk(what, start);
  const done = await waitFor(what, () => client.get(`/me/tasks/${start.body.task_id}`), (r) => r.status === 200 && r.body.status !== 'running');
  if (done.body.status !== 'completed') throw new Error(`${what} ${done.body.status}: ${done.body.error ?? ''}`);
}

async function waitFor<T extends { status: number; body: any }>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const value = await pollUntil(read, done, 50_000);
  if (!done(value)) throw new Error(`${what}: still ${value.status} ${JSON.stringify(value.body).slice(0, 300)} after 50 s`);
  return value;
}

function expectOk(what: string, res: { status: number; body: unknown }): void {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
}

/** The demo starts from nothing each time; a directory that holds anything but an earlier demo is refused, not emptied. */
function freshDirectory(dir: string): string {
  const path = resolve(dir);
  if (existsSync(path) && readdirSync(path).length > 0) {
    if (!existsSync(join(path, MARKER))) throw new Error(`${path} is not empty and holds no earlier demo: choose another directory`);
    rmSync(path, { recursive: true, force: true });
  }
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, MARKER), 'Data of `npm run demo`, emptied at each of its starts.\n');
  return path;
}
