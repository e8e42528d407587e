import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { Owner } from './dashboard-delta.ts';

type Trx = Transaction<Database>;

/**
 * Streaks are kept as runs of consecutive active days, so the current and longest streak are one
 * indexed lookup each. A day that gains its first play joins or bridges its neighbours; a day that
 * loses its last play shortens or splits its run.
 */
export async function addDay(trx: Trx, of: Owner, day: number): Promise<void> {
  const owner = { user_key: of.user_key, listener: of.listener };
  const runs = trx.selectFrom('dashboard_streaks').selectAll().where('user_key', '=', owner.user_key).where('listener', '=', owner.listener);
  const before = await runs.where('end_day', '=', day - 1).executeTakeFirst();
  const after = await runs.where('start_day', '=', day + 1).executeTakeFirst();
  if (after) await deleteRun(trx, owner, after.start_day);
  if (before) {
    const end = after?.end_day ?? day;
    await setRun(trx, owner, before.start_day, end);
    return;
  }
  await insertRun(trx, owner, day, after?.end_day ?? day);
}

export async function removeDay(trx: Trx, of: Owner, day: number): Promise<void> {
  const owner = { user_key: of.user_key, listener: of.listener };
  const run = await trx
    .selectFrom('dashboard_streaks')
    .selectAll()
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .where('end_day', '>=', day)
    .orderBy('end_day')
    .limit(1)
    .executeTakeFirst();
  if (!run || run.start_day > day) return;
  await deleteRun(trx, owner, run.start_day);
  if (run.start_day < day) await insertRun(trx, owner, run.start_day, day - 1);
  if (run.end_day > day) await insertRun(trx, owner, day + 1, run.end_day);
}

async function insertRun(trx: Trx, owner: Owner, start: number, end: number): Promise<void> {
  await trx.insertInto('dashboard_streaks').values({ ...owner, start_day: start, end_day: end, length: end - start + 1 }).execute();
}

async function setRun(trx: Trx, owner: Owner, start: number, end: number): Promise<void> {
  await trx
    .updateTable('dashboard_streaks')
    .set({ end_day: end, length: end - start + 1 })
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .where('start_day', '=', start)
    .execute();
}

async function deleteRun(trx: Trx, owner: Owner, start: number): Promise<void> {
  await trx.deleteFrom('dashboard_streaks').where('user_key', '=', owner.user_key).where('listener', '=', owner.listener).where('start_day', '=', start).execute();
}
