import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type DatabaseHandle, openPGlite, openPostgres } from '../../infra/db/create-db.ts';
import { migrate } from '../../infra/db/migrations/index.ts';

export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

export interface BenchDatabase {
  label: string;
  handle: DatabaseHandle;
  /** Closes the database and removes what the bench created (data dir, throwaway database). */
  dispose(): Promise<void>;
}

/** The embedded default: PGlite on a fresh data directory (writes go through to its files), migrated. */
export async function pgliteDatabase(): Promise<BenchDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'ml-bench-pglite-'));
  const handle = await openPGlite({ dataDir: join(dir, 'pgdata') });
  await migrate(handle.db);
  return {
    label: 'PGlite (data dir)',
    handle,
    async dispose() {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether PostgreSQL answers at `url`; the reason when it does not. */
export async function probePostgres(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

/** A throwaway database `ml_bench_<random>` on the server of `url`, migrated; dropped on dispose. */
export async function postgresDatabase(url: string): Promise<BenchDatabase> {
  const name = `ml_bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(url, `create database ${name}`);
  let handle: DatabaseHandle | undefined;
  try {
    handle = await openPostgres(withDatabase(url, name));
    await migrate(handle.db);
  } catch (error) {
    await handle?.close().catch(() => {});
    await adminQuery(url, `drop database if exists ${name} with (force)`).catch(() => {});
    throw error;
  }
  const opened = handle;
  return {
    label: `PostgreSQL (${new URL(url).host})`,
    handle: opened,
    async dispose() {
      await opened.close();
      await adminQuery(url, `drop database if exists ${name} with (force)`);
    },
  };
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** A throwaway empty database on the server of `url` for a service to migrate itself: its URL, and how to drop it. */
export async function throwawayPostgres(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `ml_bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(url, `create database ${name}`);
  return { url: withDatabase(url, name), drop: () => adminQuery(url, `drop database if exists ${name} with (force)`) };
}
