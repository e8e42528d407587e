import { type Kysely, sql } from 'kysely';
import type { Database } from './database.ts';
import { inBackground } from './work-class.ts';
import { log } from '../logger.ts';

const MAINTAIN_EVERY_MS = 60_000;

/** autovacuum's default thresholds: a table is due once this many rows changed (base + scale × live rows). */
const VACUUM_DUE = { base: 50, scale: 0.2 };
const ANALYZE_DUE = { base: 50, scale: 0.1 };
/** A table with no statistics at all (a database filled before this ran, statistics lost in a crash) is analyzed once it holds this much. */
const NEVER_ANALYZED_BYTES = 1 << 20;

interface TableActivity {
  name: string;
  live: number;
  dead: number;
  modified: number;
  never_analyzed: boolean;
}

/**
 * PGlite runs PostgreSQL in single-user mode: no checkpointer and no autovacuum run. Without a
 * checkpoint the write-ahead log grows without bound; without ANALYZE the planner guesses (after
 * a long import the dashboard answered about 3× slower); without VACUUM every counter update
 * leaves a dead row behind. So this does what those
 * processes would: every minute a CHECKPOINT, then VACUUM and ANALYZE of the tables past
 * autovacuum's thresholds, one statement at a time, each after a quiet moment of the API (the
 * connection is shared, so a statement holds requests back while it runs).
 *
 * Each statement takes its turn on the connection as background work (./pglite-dialect.ts),
 * like a projection batch. Sent to the instance directly, one could land inside another caller's
 * open transaction: `VACUUM` there fails ("cannot run inside a transaction block") and aborts
 * that transaction, so the caller's next statement failed (a reconcile's append: "current
 * transaction is aborted"; a projection batch: a failed attempt, and after a few a stalled
 * projector whose checkpoint never reaches the log's head).
 */
export function startEmbeddedMaintenance(db: Kysely<Database>, quietMoment: () => Promise<void>): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    maintain(db, quietMoment)
      .catch((error) => log.warn('embedded database maintenance failed', { error: String(error) }))
      .finally(() => (running = false));
  }, MAINTAIN_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

export async function maintain(db: Kysely<Database>, quietMoment: () => Promise<void>): Promise<void> {
  await alone(db, 'CHECKPOINT');
  for (const table of await tablesDue(db)) {
    const vacuum = table.dead > VACUUM_DUE.base + VACUUM_DUE.scale * table.live;
    const analyze = table.never_analyzed || table.modified > ANALYZE_DUE.base + ANALYZE_DUE.scale * table.live;
    if (!vacuum && !analyze) continue;
    await quietMoment();
    const name = `"${table.name.replaceAll('"', '""')}"`;
    const started = performance.now();
    await alone(db, vacuum ? `VACUUM ${analyze ? '(ANALYZE) ' : ''}${name}` : `ANALYZE ${name}`);
    log.debug('embedded database maintenance', { table: table.name, vacuum, analyze, ms: Math.round(performance.now() - started) });
  }
}

/** One statement in a turn of its own on the connection: never inside another caller's transaction. */
function alone(db: Kysely<Database>, statement: string): Promise<unknown> {
  return inBackground(() => db.connection().execute((connection) => sql.raw(statement).execute(connection)));
}

async function tablesDue(db: Kysely<Database>): Promise<TableActivity[]> {
  const { rows } = await inBackground(() =>
    sql<{ name: string; live: number | bigint; dead: number | bigint; modified: number | bigint; never_analyzed: boolean }>`
      select s.relname as name, s.n_live_tup as live, s.n_dead_tup as dead, s.n_mod_since_analyze as modified,
             (c.reltuples < 0 and pg_relation_size(c.oid) > ${sql.lit(NEVER_ANALYZED_BYTES)}) as never_analyzed
        from pg_stat_user_tables s join pg_class c on c.oid = s.relid
       where s.schemaname = current_schema()`.execute(db),
  );
  return rows.map((r) => ({ name: r.name, live: Number(r.live), dead: Number(r.dead), modified: Number(r.modified), never_analyzed: r.never_analyzed }));
}
