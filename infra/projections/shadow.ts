import { randomBytes } from 'node:crypto';
import { type Kysely, type Transaction, sql } from 'kysely';
import type { Database } from '../db/database.ts';
import type { Projector } from './projector.ts';

const PREFIX = 'read_model_rebuild_';

/**
 * Where a rebuild replays: a schema of its own holding an empty copy of each rebuilt table (its
 * indexes and constraints included) and of the checkpoints. Its batches run with the schema first on
 * the search path, so the projectors' unqualified writes land in the copies while every read of the
 * service keeps answering from the previous read model. Tables a projector writes without owning
 * them (a revision counter) resolve to the live ones.
 */
export interface Shadow {
  schema: string;
  /** The search path the service runs with (where the live read models are). */
  home: string[];
}

function tablesOf(projectors: readonly Projector[]): string[] {
  return [...new Set(projectors.flatMap((p) => p.tables))];
}

export async function createShadow(db: Kysely<Database>, projectors: readonly Projector[]): Promise<Shadow> {
  const schema = `${PREFIX}${randomBytes(6).toString('hex')}`;
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ home: string[] }>`select current_schemas(false)::text[] as home`.execute(trx);
    const home = rows[0]!.home;
    await sql`create schema ${sql.id(schema)}`.execute(trx);
    for (const table of [...tablesOf(projectors), 'projection_checkpoints']) {
      await sql`create table ${sql.id(schema, table)} (like ${sql.table(table)} including all)`.execute(trx);
    }
    return { schema, home };
  });
}

/** A transaction whose unqualified table names resolve to the shadow's copies first. */
export function inShadow<T>(db: Kysely<Database>, shadow: Shadow | undefined, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    if (shadow) await sql`set local search_path to ${sql.join([shadow.schema, ...shadow.home].map((s) => sql.id(s)))}`.execute(trx);
    return work(trx);
  });
}

/**
 * In the transaction of the rebuild's last batch: the live tables of `projectors` take the shadow's
 * rows, so readers see the previous read model until that commit and the rebuilt one from it; the
 * search path is the service's again for what follows (their checkpoints). The copies are dropped.
 */
export async function swapIn(trx: Transaction<Database>, shadow: Shadow, projectors: readonly Projector[]): Promise<void> {
  await sql`set local search_path to ${sql.join(shadow.home.map((s) => sql.id(s)))}`.execute(trx);
  for (const table of tablesOf(projectors)) {
    const copy = sql.id(shadow.schema, table);
    const { rows } = await sql<{ name: string }>`
      select attname as name from pg_attribute
      where attrelid = ${table}::regclass and attnum > 0 and not attisdropped and attgenerated = ''
      order by attnum`.execute(trx);
    const columns = sql.join(rows.map((r) => sql.id(r.name)));
    await sql`delete from ${sql.table(table)}`.execute(trx);
    await sql`insert into ${sql.table(table)} (${columns}) overriding system value select ${columns} from ${copy}`.execute(trx);
    await sql`drop table ${copy}`.execute(trx);
  }
}

/** Drops the shadow's copies of `projectors`' tables (a cancelled or failed rebuild). */
export async function dropTables(db: Kysely<Database>, shadow: Shadow, projectors: readonly Projector[]): Promise<void> {
  for (const table of tablesOf(projectors)) await sql`drop table if exists ${sql.id(shadow.schema, table)}`.execute(db);
}

/** Drops a shadow no rebuild uses any more. */
export async function dropShadow(db: Kysely<Database>, shadow: Shadow): Promise<void> {
  await sql`drop schema if exists ${sql.id(shadow.schema)} cascade`.execute(db);
}

/** Shadows left by a process that stopped in the middle of a rebuild: the previous read models stand. */
export async function dropLeftoverShadows(db: Kysely<Database>): Promise<void> {
  const { rows } = await sql<{ schema: string }>`select nspname as schema from pg_namespace where starts_with(nspname, ${PREFIX})`.execute(db);
  for (const { schema } of rows) await sql`drop schema ${sql.id(schema)} cascade`.execute(db);
}
