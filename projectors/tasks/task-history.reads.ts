import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { TaskHistoryTable } from './task-history.table.ts';
import { offsetOf } from '../../shared/paging.ts';

export interface TaskFilters {
  page: number;
  limit: number;
  name?: string | undefined;
  status?: string | undefined;
}

export function toTaskRecord(row: Selectable<TaskHistoryTable>) {
  return {
    task_id: row.task_id,
    name: row.name,
    status: row.status,
    started_by: row.started_by,
    params: row.params,
    progress: row.progress,
    summary: row.summary,
    error: row.error,
    cancel_requested: row.cancel_requested,
    started_at: row.started_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

/** Newest first; `names` and `counts_by_status` describe every run of the filtered name. */
export async function listTasks(db: Kysely<Database>, f: TaskFilters) {
  let rows = db.selectFrom('task_history');
  if (f.name) rows = rows.where('name', '=', f.name);
  const filtered = f.status ? rows.where('status', '=', f.status) : rows;
  const [items, total, counts, names] = await Promise.all([
    filtered.selectAll().orderBy('started_at', 'desc').orderBy('task_id', 'desc').limit(f.limit).offset(offsetOf(f.page, f.limit)).execute(),
    filtered.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
    rows.select(['status', sql<number>`count(*)::int`.as('n')]).groupBy('status').execute(),
    db.selectFrom('task_history').select('name').distinct().orderBy('name').execute(),
  ]);
  return {
    items: items.map(toTaskRecord),
    total: total.n,
    page: f.page,
    limit: f.limit,
    names: names.map((r) => r.name),
    counts_by_status: Object.fromEntries(counts.map((c) => [c.status, c.n])),
  };
}

/** Every task one account started, newest first. */
export async function tasksOf(db: Kysely<Database>, username: string, page: number, limit: number) {
  const mine = db.selectFrom('task_history').where('started_by', '=', username);
  const [rows, total] = await Promise.all([
    mine.selectAll().orderBy('started_at', 'desc').orderBy('task_id', 'desc').limit(limit).offset(offsetOf(page, limit)).execute(),
    mine.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toTaskRecord), total: Number(total.n), page, limit };
}

export async function findTask(db: Kysely<Database>, taskId: string) {
  const row = await db.selectFrom('task_history').selectAll().where('task_id', '=', taskId).executeTakeFirst();
  return row ? toTaskRecord(row) : undefined;
}

/** The newest running task whose name starts with the prefix (a backfill family), if any. */
export async function findRunningTask(db: Kysely<Database>, namePrefix: string | undefined) {
  let q = db.selectFrom('task_history').selectAll().where('status', '=', 'running');
  if (namePrefix) q = q.where(sql<boolean>`starts_with(name, ${namePrefix})`);
  const row = await q.orderBy('started_at', 'desc').limit(1).executeTakeFirst();
  return row ? toTaskRecord(row) : null;
}

/** Runs of a task family started by one account (since `since`, its registration), newest first. */
function startedBy(db: Kysely<Database>, name: string, username: string, since: string) {
  const rows = db.selectFrom('task_history').where('name', '=', name).where('started_by', '=', username);
  return since ? rows.where('started_at', '>=', new Date(since)) : rows;
}

export async function tasksStartedBy(db: Kysely<Database>, name: string, username: string, since: string, page: number, limit: number) {
  const mine = startedBy(db, name, username, since);
  const [rows, total] = await Promise.all([
    mine.selectAll().orderBy('started_at', 'desc').orderBy('task_id', 'desc').limit(limit).offset(offsetOf(page, limit)).execute(),
    mine.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toTaskRecord), total: Number(total.n), page, limit };
}

export async function latestTaskStartedBy(db: Kysely<Database>, name: string, username: string, since: string, status?: string) {
  let q = startedBy(db, name, username, since).selectAll();
  if (status) q = q.where('status', '=', status);
  const row = await q.orderBy('started_at', 'desc').orderBy('task_id', 'desc').executeTakeFirst();
  return row ? toTaskRecord(row) : null;
}

/** The newest runs of a task name, newest first (a drain reads where the last one stopped). */
export async function previousRuns(db: Kysely<Database>, name: string, limit: number) {
  const rows = await db.selectFrom('task_history').selectAll().where('name', '=', name).orderBy('started_at', 'desc').orderBy('task_id', 'desc').limit(limit).execute();
  return rows.map(toTaskRecord);
}
