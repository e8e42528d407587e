import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseHandle, openPGlite, openPostgres } from '../../infra/db/create-db.ts';
import { migrate, migrationNames } from '../../infra/db/migrations/index.ts';

/**
 * One database per test file, cloned from a migrated template: PGlite loads a dump of a migrated
 * instance, PostgreSQL creates the database `TEMPLATE` a migrated one. DATABASE_URL selects PostgreSQL.
 */
export const engineUnderTest = process.env.DATABASE_URL ? 'postgres' : 'pglite';

let pgliteTemplate: Promise<Blob> | undefined;
let postgresTemplate: Promise<string> | undefined;

export async function freshDatabase(): Promise<DatabaseHandle> {
  if (process.env.DATABASE_URL) {
    const template = await (postgresTemplate ??= createPostgresTemplate(process.env.DATABASE_URL));
    const name = `ml_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(process.env.DATABASE_URL, `create database ${name} template ${template}`);
    const handle = await openPostgres(withDatabase(process.env.DATABASE_URL, name));
    return {
      ...handle,
      async close() {
        await handle.close();
        await adminQuery(process.env.DATABASE_URL!, `drop database if exists ${name} with (force)`);
      },
    };
  }
  const dump = await (pgliteTemplate ??= createPGliteTemplate());
  return openPGlite({ loadDataDir: dump });
}

async function createPGliteTemplate(): Promise<Blob> {
  const handle = await openPGlite({});
  await migrate(handle.db);
  const dump = await handle.pglite!.dumpDataDir('none');
  await handle.close();
  return dump;
}

/** The template's name carries a hash of the migrations, so a new migration makes a new template. */
async function createPostgresTemplate(url: string): Promise<string> {
  const name = `ml_template_${createHash('sha256').update(migrationNames.join(',')).digest('hex').slice(0, 10)}_${process.pid}`;
  await adminQuery(url, `drop database if exists ${name} with (force)`);
  await adminQuery(url, `create database ${name}`);
  const handle = await openPostgres(withDatabase(url, name), 1);
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

/** Drops this run's template (mocha root hook). */
export async function dropTemplates(): Promise<void> {
  if (!process.env.DATABASE_URL || !postgresTemplate) return;
  const name = await postgresTemplate;
  await adminQuery(process.env.DATABASE_URL, `drop database if exists ${name} with (force)`);
}
