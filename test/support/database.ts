import { createHash, randomBytes } from 'node:crypto';
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { type DatabaseHandle, type PoolOptions, openPGlite, openPostgres } from '../../infra/db/create-db.ts';
import { PGliteDialect } from '../../infra/db/pglite-dialect.ts';
import type { EmbeddedDatabase } from '../../infra/db/pglite-thread.ts';
import type { Database } from '../../infra/db/database.ts';
import { migrate, migrationNames } from '../../infra/db/migrations/index.ts';

/**
 * One database per test file, as if cloned from a migrated template: PostgreSQL creates the
 * database `TEMPLATE` a migrated one; PGlite loads a dump of a migrated instance once per instance
 * (about a second each) and, when a file closes its handle, empties every table so the next file
 * gets the instance back as new. DATABASE_URL selects PostgreSQL.
 */
export const engineUnderTest = process.env.DATABASE_URL ? 'postgres' : 'pglite';

let pgliteTemplate: Promise<Blob> | undefined;
let postgresTemplate: Promise<string> | undefined;

/** `pool` shapes the PostgreSQL pool (PGlite has one connection and no pool). */
export async function freshDatabase(pool: PoolOptions = {}): Promise<DatabaseHandle> {
  if (process.env.DATABASE_URL) {
    const template = await (postgresTemplate ??= process.env[TEMPLATE_ENV] ? Promise.resolve(process.env[TEMPLATE_ENV]) : createPostgresTemplate(process.env.DATABASE_URL));
    const name = `ml_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(process.env.DATABASE_URL, `create database ${name} template ${template}`);
    const handle = await openPostgres(withDatabase(process.env.DATABASE_URL, name), pool);
    return {
      ...handle,
      async close() {
        await handle.close();
        await adminQuery(process.env.DATABASE_URL!, `drop database if exists ${name} with (force)`);
      },
    };
  }
  const pglite = idlePGlites.pop() ?? (await openPGlite({ loadDataDir: await (pgliteTemplate ??= createPGliteTemplate()) })).pglite!;
  let closed = false;
  const mine = fenced(pglite, () => !closed);
  const dialect = new PGliteDialect(mine);
  const db = new Kysely<Database>({ dialect });
  return {
    db,
    engine: 'pglite',
    pglite: mine,
    // The service follows requests on it as on its own database (background work yields to them).
    turns: dialect.turns,
    async close() {
      if (closed) return;
      closed = true;
      // Taken down by a test (takeDown): this instance cannot serve another file.
      if (pglite.closed) return;
      // Not db.destroy(): that would close the instance the next file takes.
      await resetToTemplate(pglite);
      idlePGlites.push(pglite);
    },
  };
}

/**
 * The instance as one file uses it. Once the file closed its handle, a call from work its service
 * left running (a batch or a task cut at stop) fails here instead of reaching the instance the next
 * file now uses: a statement of that work that failed there left the next file's first transaction
 * aborted. Closing the instance itself (takeDown) still goes through.
 */
function fenced(pglite: EmbeddedDatabase, open: () => boolean): EmbeddedDatabase {
  const guard =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      open() ? call(...args) : Promise.reject(new Error('this test file closed its database'));
  return {
    query: guard(pglite.query.bind(pglite)),
    exec: guard(pglite.exec.bind(pglite)),
    ...(pglite.beginWith ? { beginWith: guard(pglite.beginWith.bind(pglite)) } : {}),
    dumpDataDir: guard(pglite.dumpDataDir.bind(pglite)),
    close: () => pglite.close(),
    get closed() {
      return pglite.closed;
    },
  } as EmbeddedDatabase;
}

const idlePGlites: EmbeddedDatabase[] = [];
/** The migrated schema's tables: emptied between files; tables a test made itself are dropped. */
let templateTables: string[] = [];

async function resetToTemplate(pglite: EmbeddedDatabase): Promise<void> {
  // A file's service may have stopped in the middle of a transaction (background work cut at
  // close): end it, or the next file's first statement meets an aborted transaction.
  await pglite.exec('rollback');
  const extra = (await publicTables(pglite)).filter((t) => !templateTables.includes(t));
  if (extra.length > 0) await pglite.exec(`drop table ${extra.join(', ')} cascade`);
  await pglite.exec(`truncate ${templateTables.join(', ')} restart identity`);
}

async function publicTables(pglite: EmbeddedDatabase): Promise<string[]> {
  const { rows } = await pglite.query<{ name: string }>(`select quote_ident(tablename) as name from pg_tables where schemaname = 'public' and tablename not like 'kysely_migration%'`);
  return rows.map((r) => r.name);
}

async function createPGliteTemplate(): Promise<Blob> {
  const handle = await openPGlite({});
  await migrate(handle.db);
  templateTables = await publicTables(handle.pglite!);
  const dump = await handle.pglite!.dumpDataDir('none');
  await handle.close();
  return dump;
}

/** The template's name carries a hash of the migrations, so a new migration makes a new template. */
async function createPostgresTemplate(url: string): Promise<string> {
  const name = `ml_template_${createHash('sha256').update(migrationNames.join(',')).digest('hex').slice(0, 10)}_${process.pid}`;
  await adminQuery(url, `drop database if exists ${name} with (force)`);
  await adminQuery(url, `create database ${name}`);
  const handle = await openPostgres(withDatabase(url, name), { max: 1 });
  await migrate(handle.db);
  await handle.close();
  return name;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * The database goes away under a running service: PostgreSQL drops it (ending every connection);
 * the embedded PGlite instance is closed.
 */
export async function takeDown(handle: DatabaseHandle): Promise<void> {
  if (handle.pglite) {
    await handle.pglite.close();
    return;
  }
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(handle.db);
  await adminQuery(process.env.DATABASE_URL!, `drop database ${rows[0]!.name} with (force)`);
}

/** Where the run's template name is handed to mocha's workers. */
const TEMPLATE_ENV = 'ML_TEST_PG_TEMPLATE';

/** Makes this run's template (mocha's global setup) and hands its name to the files through the environment. */
export async function createTemplateOnce(): Promise<void> {
  if (!process.env.DATABASE_URL || process.env[TEMPLATE_ENV]) return;
  process.env[TEMPLATE_ENV] = await (postgresTemplate ??= createPostgresTemplate(process.env.DATABASE_URL));
}

/** Drops this run's template (mocha's global teardown). */
export async function dropTemplate(): Promise<void> {
  if (!process.env.DATABASE_URL || !postgresTemplate) return;
  const name = await postgresTemplate;
  await adminQuery(process.env.DATABASE_URL, `drop database if exists ${name} with (force)`);
}
