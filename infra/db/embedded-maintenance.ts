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
 * processes would: every minute that something was written, a CHECKPOINT, then VACUUM and ANALYZE
 * of the tables past autovacuum's thresholds, one statement at a time, each after a quiet moment of
 * the API (the connection is shared, so a statement holds requests back while it runs).
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
  let seen: string | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    maintain(db, quietMoment, seen)
      .then((position) => (seen = position))
      .catch((error) => log.warn('embedded database maintenance failed', { error: String(error) }))
      .finally(() => (running = false));
  }, MAINTAIN_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * One run: returns the write-ahead log's position after its checkpoint. Given the position an
 * earlier run returned, a run that finds the log still there does nothing: nothing was written
 * since, so nothing is left to checkpoint, vacuum or analyze. Otherwise the checkpoint and the
 * statistics' read held the connection for about 12 ms each minute, also while nothing was written,
 * and a request arriving then waited it out.
 */
export async function maintain(db: Kysely<Database>, quietMoment: () => Promise<void>, seen?: string): Promise<string> {
  const now = await logPosition(db);
  if (now === seen) return now;
  await alone(db, 'CHECKPOINT');
  const checkpointed = await logPosition(db);
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
  return checkpointed;
}

/**
 * Where the write-ahead log ends: it moves with every write (a checkpoint writes a record too).
 * Statistics reach their views at most once a second unless told to: told here, a read of them
 * after this sees every write up to now.
 */
async function logPosition(db: Kysely<Database>): Promise<string> {
  const { rows } = await inBackground(() => sql<{ at: string }>`select pg_current_wal_insert_lsn()::text as at, pg_stat_force_next_flush()`.execute(db));
  return rows[0]!.at;
}

/** One statement in a turn of its own on the connection: never inside another caller's transaction. */
function alone(db: Kysely<Database>, statement: string): Promise<unknown> {
  return inBackground(() => db.connection().execute((connection) => sql.raw(statement).execute(connection)));
}

async function tablesDue(db: Kysely<Database>): Promise<TableActivity[]> {
  const { rows } = await inBackground(() =>
    // The counters themselves, not the pg_stat_user_tables view, which computes some twenty per table (8 ms against 2 on PGlite).
    sql<{ name: string; live: number | bigint; dead: number | bigint; modified: number | bigint; never_analyzed: boolean }>`
      select c.relname as name, pg_stat_get_live_tuples(c.oid) as live, pg_stat_get_dead_tuples(c.oid) as dead,
             pg_stat_get_mod_since_analyze(c.oid) as modified,
             (c.reltuples < 0 and pg_relation_size(c.oid) > ${sql.lit(NEVER_ANALYZED_BYTES)}) as never_analyzed
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = current_schema() and c.relkind in ('r', 'm')`.execute(db),
  );
  return rows.map((r) => ({ name: r.name, live: Number(r.live), dead: Number(r.dead), modified: Number(r.modified), never_analyzed: r.never_analyzed }));
}
