import { cpSync, existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import type { Database } from './database.ts';
import { log } from '../logger.ts';
import type { ConnectionTurns } from './connection-turns.ts';
import { namingPool, runPreparedOn } from './named-statements.ts';
import { type EmbeddedDatabase, type EmbeddedOptions, PGliteThread } from './pglite-thread.ts';

export type Engine = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  engine: Engine;
  /** The PGlite instance when embedded, for its maintenance (CHECKPOINT, dumps in tests). */
  pglite?: EmbeddedDatabase;
  /** Embedded: who holds the one connection next (requests, background work; see ./connection-turns.ts). */
  turns?: ConnectionTurns;
  /** The PostgreSQL database's address, for connections outside the pool (locks, LISTEN). */
  connectionString?: string;
  close(): Promise<void>;
}

export interface PoolOptions {
  max?: number;
  /**
   * How long a query waits for a connection (a new one, or a free one of a full pool) before it
   * fails; the HTTP layer answers that failure 503 with Retry-After (see ./unavailable.ts).
   */
  acquireTimeoutMs?: number;
}

export async function openPostgres(connectionString: string, options: PoolOptions = {}): Promise<DatabaseHandle> {
  // Loaded only for PostgreSQL: the embedded default never needs the driver.
  const [{ default: pg }, { Kysely, PostgresDialect }] = await Promise.all([import('pg'), import('kysely')]);
  // int8 comes back as a number: counts, and the bigint columns holding event integers, which the
  // event schemas keep within safe integers (PGlite does the same for safe values).
  pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
  const max = options.max ?? 10;
  const poolOf = (size: number) => {
    const pool = new pg.Pool({ connectionString, max: size, connectionTimeoutMillis: options.acquireTimeoutMs ?? 5000 });
    // An idle connection dropped by the server (restart, admin command) must not crash the process.
    pool.on('error', (error) => log.warn('database connection lost', { error: error.message }));
    return pool;
  };
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: poolOf(max) }) });
  // The prepared statements' own connections (see ./named-statements.ts): queued before any statement of the connection.
  const genericPool = poolOf(Math.ceil(max / 2));
  genericPool.on('connect', (client) => {
    // Refused (a server before PostgreSQL 12): the statements still run, planned at every execution.
    client.query('set plan_cache_mode = force_generic_plan').catch((error: Error) => log.warn('prepared statements will be planned at every execution', { error: error.message }));
  });
  const prepared = new Kysely<Database>({ dialect: new PostgresDialect({ pool: namingPool(genericPool) }) });
  runPreparedOn(db, prepared);
  return { db, engine: 'postgres', connectionString, close: async () => void (await Promise.all([db.destroy(), prepared.destroy()])) };
}

/**
 * PGlite's default shared_buffers (128 MB) is most of an idle service's memory, and the embedded
 * database's files sit in the OS page cache anyway: 16 MB holds the hot read models.
 */
const EMBEDDED_SETTINGS = ['-c', 'shared_buffers=16MB'];

/**
 * `thread: 'own'` (the service's default) runs PGlite on a worker thread, so its SQL never blocks
 * the event loop (see ./pglite-thread.ts); 'main' runs it here, which saves the message passing
 * where nothing else waits on the loop (a replay, a test's short queries); a thread already started
 * (infra/main.ts starts it before reading the settings) opens it there. The thread starts before
 * kysely loads here: a start overlaps the database's opening with loading the service (infra/main.ts).
 */
export async function openPGlite(source: { dataDir?: string; loadDataDir?: Blob; thread?: 'own' | 'main' | PGliteThread }): Promise<DatabaseHandle> {
  const dataDir = source.dataDir ? resolve(source.dataDir) : undefined;
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const options = { dataDir, loadDataDir: source.loadDataDir, settings: EMBEDDED_SETTINGS, seed: dataDir && templateFor(dataDir) };
  const [pglite, { Kysely }, { PGliteDialect }] = await Promise.all([
    source.thread === 'main' ? inThisThread(options) : source.thread instanceof PGliteThread ? source.thread.open(options) : PGliteThread.create(options),
    import('kysely'),
    import('./pglite-dialect.ts'),
  ]);
  const dialect = new PGliteDialect(pglite);
  const db = new Kysely<Database>({ dialect });
  return { db, engine: 'pglite', pglite, turns: dialect.turns, close: () => db.destroy() };
}

/**
 * A data directory without a database starts as a copy of the build's migrated one (see
 * infra/build/pgdata-template.mjs) when there is one: copying files costs a fraction of initdb.
 */
function templateFor(dir: string): string | undefined {
  const template = fileURLToPath(new URL('../../pgdata-template', import.meta.url));
  return existsSync(join(dir, 'PG_VERSION')) || !existsSync(join(template, 'PG_VERSION')) ? undefined : template;
}

/** As ./pglite-worker.mjs opens it, with the same extensions (an index on pg_trgm needs it loaded). */
async function inThisThread({ dataDir, loadDataDir, settings = [], seed }: EmbeddedOptions): Promise<PGlite> {
  if (seed && dataDir) cpSync(seed, dataDir, { recursive: true });
  const [{ PGlite }, { pg_trgm }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/pg_trgm')]);
  const startParams = [...PGlite.defaultStartParams, ...settings];
  const extensions = { pg_trgm };
  if (dataDir) return PGlite.create(dataDir, { startParams, extensions });
  return PGlite.create({ startParams, extensions, ...(loadDataDir ? { loadDataDir } : {}) });
}

/** The embedded default lives in DATA_DIR/pgdata; DATABASE_URL selects PostgreSQL. */
export function openDatabase(config: { DATABASE_URL?: string | undefined; DATA_DIR: string }, thread?: PGliteThread): Promise<DatabaseHandle> {
  return config.DATABASE_URL
    ? openPostgres(config.DATABASE_URL)
    : openPGlite({ dataDir: join(config.DATA_DIR, 'pgdata'), thread });
}
