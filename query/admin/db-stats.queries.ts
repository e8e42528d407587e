import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import type { Database } from '../../infra/db/database.ts';
import { projectors } from '../../projectors/registry.ts';
import { countInvalidByKind } from '../../projectors/scrobbler/invalid-scrobbles.reads.ts';
import { ProjectorReadiness, readiness } from '../operations/readiness.queries.ts';
import { AccountCounts, accountCounts } from './accounts.queries.ts';
import { CanonicalCounts, EventLogCounts, countedLog } from './event-log.queries.ts';
import { TableSize, databaseSizes, tableSizes } from './storage.queries.ts';

const Int = z.number().int();

export const DbStats = z.object({
  generated_at: z.string(),
  ...AccountCounts.shape,
  canonical: CanonicalCounts,
  scrobbles: z.object({ total: Int, valid: Int, invalid: z.object({ total: Int, by_kind: z.record(z.string(), Int) }) }),
  event_log: EventLogCounts.extend({
    store: z.enum(['postgres', 'eventstoredb']),
    size_bytes: Int.nullable().describe('null on EventStoreDB, whose files this service does not see'),
  }),
  head: z.string().nullable().describe('the last position of the log (opaque)'),
  read_models: z.array(
    ProjectorReadiness.extend({ rows: Int, size_bytes: Int, tables: z.array(TableSize) }).describe("a projector's state, position and lag, and its tables"),
  ),
  stalled_projectors: z.array(z.string()),
  tasks: z.object({ total: Int, by_status: z.record(z.string(), Int) }),
  database: z.object({ engine: z.enum(['pglite', 'postgres']), size_bytes: Int }),
});
export type DbStats = z.infer<typeof DbStats>;

/**
 * The admin's dashboard, recomputed on every request and cheap whatever the size of the log: counts
 * kept by projectors (db_counters, upstream_connections, scrobble_mirror), counts over small sets
 * (invalid scrobbles by their partial index, tasks, users), the catalog for sizes and large tables' rows, and the
 * projectors' health exactly as /readyz reports it. Nothing here scans the log.
 */
export async function dbStats(ctx: AppContext, staleDays: number): Promise<DbStats> {
  const now = new Date();
  const tables = projectors.flatMap((p) => p.tables);
  const [accounts, counted, scrobbles, tasks, ready, sizes, storage] = await Promise.all([
    accountCounts(ctx.db, staleDays, now),
    countedLog(ctx.db),
    scrobbleCounts(ctx.db),
    taskCounts(ctx.db),
    readiness(ctx, { details: true }),
    tableSizes(ctx.db, tables),
    databaseSizes(ctx.db, !ctx.config.EVENTSTORE_URL),
  ]);
  const read_models = ready.projectors.map((p) => {
    const own = (projectors.find((r) => r.name === p.name)?.tables ?? []).flatMap((t) => sizes.get(t) ?? []);
    return { ...p, rows: sum(own.map((t) => t.rows)), size_bytes: sum(own.map((t) => t.size_bytes)), tables: own };
  });
  return {
    generated_at: now.toISOString(),
    ...accounts,
    canonical: counted.canonical,
    scrobbles,
    event_log: { ...counted.log, store: ctx.config.EVENTSTORE_URL ? 'eventstoredb' : 'postgres', size_bytes: storage.log },
    head: ready.head,
    read_models,
    stalled_projectors: ready.projectors.filter((p) => p.state === 'stalled').map((p) => p.name),
    tasks,
    database: { engine: ctx.engine, size_bytes: storage.database },
  };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Task runs by status: one grouped count (the task history's index on name and status covers it). */
async function taskCounts(db: Kysely<Database>): Promise<DbStats['tasks']> {
  const rows = await db.selectFrom('task_history').select(['status', sql<number>`count(*)::int`.as('n')]).groupBy('status').execute();
  return { total: sum(rows.map((r) => r.n)), by_status: Object.fromEntries(rows.map((r) => [r.status, r.n])) };
}

/** Totals from the per-account counts the scrobbles projector keeps; invalid ones from their partial index. */
async function scrobbleCounts(db: Kysely<Database>): Promise<DbStats['scrobbles']> {
  const [totals, byKind] = await Promise.all([
    db.selectFrom('scrobble_mirror').select([sql<string>`coalesce(sum(scrobble_count), 0)`.as('total'), sql<string>`coalesce(sum(valid_count), 0)`.as('valid')]).executeTakeFirstOrThrow(),
    countInvalidByKind(db),
  ]);
  const { all, ...by_kind } = byKind;
  return { total: Number(totals.total), valid: Number(totals.valid), invalid: { total: all, by_kind } };
}
