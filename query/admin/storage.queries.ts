import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';

/** A table this small is counted exactly (a count reads about this much)… */
const EXACT_BELOW_BYTES = 1024 * 1024;
/** …within this much in all per request; past it, and for larger tables, the statistics' estimate. */
const EXACT_BUDGET_BYTES = 8 * 1024 * 1024;

export const TableSize = z.object({
  table: z.string(),
  rows: z.number().int(),
  rows_estimated: z.boolean().describe('true: from the database statistics (large tables), not counted'),
  size_bytes: z.number().int().describe('the table, its TOAST and its indexes (main forks)'),
});
export type TableSize = z.infer<typeof TableSize>;

interface CatalogRow {
  name: string;
  size_bytes: string | number;
  heap_bytes: string | number;
  live: string | number;
  reltuples: string | number;
}

/**
 * Rows and size of each table from the catalog, never a scan of a large table: sizes from the
 * files (main forks only, a stat each: the free-space and visibility maps are small and cost as
 * many again), rows counted exactly for small non-empty tables within a budget, else the live-row
 * count the statistics keep (the planner's estimate when they have none).
 */
export async function tableSizes(db: Kysely<Database>, tables: readonly string[]): Promise<Map<string, TableSize>> {
  if (tables.length === 0) return new Map();
  const { rows } = await sql<CatalogRow>`
    select c.relname as name, pg_relation_size(c.oid) as heap_bytes, pg_stat_get_live_tuples(c.oid) as live, c.reltuples,
           pg_relation_size(c.oid) + coalesce(pg_relation_size(nullif(c.reltoastrelid, 0)), 0)
             + coalesce((select sum(pg_relation_size(i.indexrelid)) from pg_index i where i.indrelid = c.oid), 0) as size_bytes
      from pg_class c
     where c.relnamespace = current_schema()::regnamespace and c.relkind = 'r' and c.relname in (${sql.join([...tables])})`.execute(db);
  let budget = EXACT_BUDGET_BYTES;
  const exact = rows
    .filter((r) => Number(r.heap_bytes) > 0 && Number(r.heap_bytes) <= EXACT_BELOW_BYTES)
    .sort((a, b) => Number(a.heap_bytes) - Number(b.heap_bytes))
    .filter((r) => (budget -= Number(r.heap_bytes)) >= 0)
    .map((r) => r.name);
  const counted = await exactCounts(db, exact);
  const sizes = new Map<string, TableSize>();
  for (const r of rows) {
    // An empty heap file holds no row: exact without a count.
    const count = Number(r.heap_bytes) === 0 ? 0 : counted.get(r.name);
    const estimate = Math.max(Number(r.live), Number(r.reltuples), 0);
    sizes.set(r.name, { table: r.name, rows: count ?? Math.round(estimate), rows_estimated: count === undefined, size_bytes: Number(r.size_bytes) });
  }
  return sizes;
}

async function exactCounts(db: Kysely<Database>, tables: string[]): Promise<Map<string, number>> {
  if (tables.length === 0) return new Map();
  const counts = tables.map((t) => sql`select ${t} as name, count(*) as n from ${sql.table(t)}`);
  const { rows } = await sql<{ name: string; n: string | number }>`${sql.join(counts, sql` union all `)}`.execute(db);
  return new Map(rows.map((r) => [r.name, Number(r.n)]));
}

/** The whole database, and the event log's tables when the log lives there (not on EventStoreDB). */
export async function databaseSizes(db: Kysely<Database>, logInDatabase: boolean): Promise<{ database: number; log: number | null }> {
  const { rows } = await sql<{ database: string | number; log: string | number }>`
    select pg_database_size(current_database()) as database,
           pg_total_relation_size('events') + pg_total_relation_size('streams') as log`.execute(db);
  return { database: Number(rows[0]!.database), log: logInDatabase ? Number(rows[0]!.log) : null };
}
