import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { type Kysely, sql } from 'kysely';
import type { DatabaseHandle } from '../../../infra/db/create-db.ts';
import type { Database } from '../../../infra/db/database.ts';
import { createPostgresEventStore } from '../../../infra/eventstore/postgres/postgres-event-store.ts';
import { replayInto } from '../../../infra/projections/replay.ts';
import { pollForPosition } from '../../../infra/projections/wait-for-position.ts';
import { projectors } from '../../../projectors/registry.ts';
import { type CatalogFake, startCatalogFake } from '../../fakes/catalog/server.ts';
import { ApiClient } from '../../support/api.ts';
import { freshDatabase } from '../../support/database.ts';
import { type ServiceProcess, freePort, nodeStart } from '../../support/service-process.ts';

const ADMIN_PASSWORD = 'scale-out-admin-password';
const LISTENING = /Listening on (http:\/\/\S+)/;

/** Every read model's rows, each as JSON, sorted: two databases hold the same read models when these are equal. */
async function readModelRows(db: Kysely<Database>): Promise<Record<string, string[]>> {
  const rows: Record<string, string[]> = {};
  for (const table of [...new Set(projectors.flatMap((p) => p.tables))].sort()) {
    const { rows: found } = await sql<{ row: unknown }>`select to_jsonb(t) as row from ${sql.table(table)} t`.execute(db);
    rows[table] = found.map((r) => JSON.stringify(r.row)).sort();
  }
  return rows;
}

async function until<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms; last ${JSON.stringify(value)}`);
    await sleep(50);
  }
}

/**
 * The scaled-out deployment on one PostgreSQL: two `api`, one `projector` and two `worker`
 * processes (docs/deploy.md), each the service's own node process.
 */
describe('several processes on one PostgreSQL', function () {
  this.timeout(120_000);
  let database: DatabaseHandle;
  let catalog: CatalogFake;
  const processes: ServiceProcess[] = [];
  const dataDirs: string[] = [];
  let api1: string;
  let api2: string;
  let workers: ServiceProcess[];

  before(async function () {
    if (!process.env.DATABASE_URL) this.skip(); // Several processes need a server: PGlite is one process's embedded database. The PostgreSQL run (DATABASE_URL) runs this.
    database = await freshDatabase();
    catalog = await startCatalogFake();
    const common = {
      DATABASE_URL: database.connectionString!,
      JWT_SECRET: 'scale-out-test-jwt-secret-0123456789abcdef',
      SECRET_KEY: 'scale-out-test-secret-key-0123456789abcdef',
      ADMIN_PASSWORD,
      CATALOG_API_URL: catalog.url,
      LOG_LEVEL: 'info',
    };
    const start = async (roles: string) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'music-library-scale-out-'));
      dataDirs.push(dataDir);
      const child = nodeStart({ ...common, ROLES: roles, DATA_DIR: dataDir, PORT: String(await freePort()) });
      processes.push(child);
      return child;
    };
    const [first, second, projector, ...twoWorkers] = await Promise.all([start('api'), start('api'), start('projector'), start('worker'), start('worker')]);
    workers = twoWorkers;
    const urls = await Promise.all([first!, second!].map(async (p) => (await p.waitFor(LISTENING, 90_000))[1]!));
    [api1, api2] = [urls[0]!, urls[1]!];
    await Promise.all([projector!.waitFor(/service started/, 90_000), ...workers.map((w) => w.waitFor(/service started/, 90_000))]);
  });

  afterEach(function () {
    if (this.currentTest?.state !== 'failed') return;
    for (const [i, p] of processes.entries()) console.error(`--- process ${i} (${p.child.spawnargs.join(' ')}):\n${p.output().split('\n').slice(-40).join('\n')}`);
  });

  after(async () => {
    for (const p of processes) p.child.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.exited));
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    await catalog?.close();
    await database?.close();
  });

  it('registers on one api and signs in on the other; a logout on one is refused by the other within a second', async () => {
    const first = new ApiClient(api1);
    expect((await first.post('/auth/register', { username: 'nina', password: 'a-long-enough-password' })).status).to.equal(200);
    const second = new ApiClient(api2);
    expect((await second.post('/auth/login', { username: 'nina', password: 'a-long-enough-password' })).status).to.equal(200);
    // The session signed in on api2 is used on api1 too, as a browser behind a load balancer would.
    const elsewhere = new ApiClient(api1);
    elsewhere.setCookie('media_session', second.cookie('media_session')!);
    expect((await second.get('/auth/me')).status).to.equal(200);
    expect((await elsewhere.get('/auth/me')).status).to.equal(200);

    expect((await elsewhere.post('/auth/logout')).status).to.equal(200);
    const loggedOutAt = Date.now();
    await until('api2 refuses the ended session', () => second.get('/auth/me'), (res) => res.status === 401, 1000);
    expect(Date.now() - loggedOutAt).to.be.below(1000);
  });

  it('counts failed logins on both apis together: the sixth guess is refused whichever api it reaches', async () => {
    const guess = (api: string) => new ApiClient(api).post('/auth/login', { username: 'nina', password: 'not-the-password' });
    for (const api of [api1, api2, api1, api2, api1]) expect((await guess(api)).status).to.equal(401);
    for (const api of [api2, api1]) expect((await guess(api)).status).to.equal(429);
  });

  it('resolves one catalog album on both apis at once into one entity', async () => {
    const [one, two] = [new ApiClient(api1), new ApiClient(api2)];
    for (const client of [one, two]) expect((await client.post('/auth/login', { username: 'admin', password: ADMIN_PASSWORD })).status).to.equal(200);
    const [a, b] = await Promise.all([one.get('/albums/resolve?catalog=302127'), two.get('/albums/resolve?catalog=302127')]);
    expect([a.status, b.status]).to.deep.equal([200, 200]);
    expect(a.body.id).to.equal(b.body.id);
    expect(a.body.artist_id).to.equal(b.body.artist_id);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from canonical_docs where kind = 'album' and not tombstoned`.execute(database.db);
    expect(rows[0]!.n).to.equal(1);
  });

  it('runs a rebuild asked on one api on a worker; killed with -9, the other worker finishes it', async () => {
    const admin = new ApiClient(api1);
    expect((await admin.post('/auth/login', { username: 'admin', password: ADMIN_PASSWORD })).status).to.equal(200);
    const started = await admin.post('/admin/canonical/rebuild');
    expect(started.status).to.equal(200);
    const taskId: string = started.body.task_id;
    const running = new RegExp(`"task started","task_id":"${taskId}"`);
    const runner = await Promise.any(workers.map(async (w) => (await w.waitFor(running, 20_000), w)));
    runner.child.kill('SIGKILL');
    await runner.exited;
    const survivor = workers.find((w) => w !== runner)!;

    const viewer = new ApiClient(api2);
    expect((await viewer.post('/auth/login', { username: 'admin', password: ADMIN_PASSWORD })).status).to.equal(200);
    const task = await until('the rebuild completes', async () => (await viewer.get(`/admin/task-history/${taskId}`)).body, (t) => t.status !== 'running', 30_000);
    expect(task.status).to.equal('completed');
    expect(survivor.output()).to.match(new RegExp(`resuming interrupted task","task_id":"${taskId}"`));
  });

  it('ends with read models equal to a fresh rebuild of the log', async () => {
    const store = createPostgresEventStore(database.db);
    const head = await store.headPosition();
    expect(await pollForPosition(database.db, head, 20_000)).to.equal(true);
    const scratch = await freshDatabase();
    try {
      const summary = await replayInto(store, scratch.db, projectors, head);
      expect(summary.failed).to.deep.equal({});
      expect(await readModelRows(database.db)).to.deep.equal(await readModelRows(scratch.db));
    } finally {
      await scratch.close();
    }
  });
});
