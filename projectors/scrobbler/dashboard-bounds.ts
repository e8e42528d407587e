import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { DAY_SECONDS, monthStartDay } from '../../shared/scrobbles/calendar.ts';
import type { EntityChange } from './dashboard-delta.ts';

type Trx = Transaction<Database>;
type Edge = 'first' | 'last';

/**
 * After an entity lost scrobbles, its first and last play may have gone with them. Months, then
 * that month's days, then that day's scrobbles narrow the search, so the cost does not grow with
 * the length of the history.
 */
export async function recomputeBounds(trx: Trx, entities: EntityChange[]): Promise<void> {
  for (const e of entities) {
    const first = await edgePlay(trx, e, 'first');
    const last = await edgePlay(trx, e, 'last');
    if (first === undefined || last === undefined) continue;
    await trx
      .updateTable('dashboard_entities')
      .set({ first_uts: first, last_uts: last })
      .where('user_key', '=', e.user_key)
      .where('listener', '=', e.listener)
      .where('kind', '=', e.kind)
      .where('entity_key', '=', e.entity_key)
      .execute();
  }
}

const order = (edge: Edge) => (edge === 'first' ? 'asc' : 'desc');

async function edgePlay(trx: Trx, e: EntityChange, edge: Edge): Promise<number | undefined> {
  const month = await trx
    .selectFrom('dashboard_entity_months')
    .select('month')
    .where('user_key', '=', e.user_key)
    .where('listener', '=', e.listener)
    .where('kind', '=', e.kind)
    .where('entity_key', '=', e.entity_key)
    .where('plays', '>', 0)
    .orderBy('month', order(edge))
    .limit(1)
    .executeTakeFirst();
  if (!month) return undefined;
  const day = await trx
    .selectFrom('dashboard_entity_days')
    .select('day')
    .where('user_key', '=', e.user_key)
    .where('listener', '=', e.listener)
    .where('kind', '=', e.kind)
    .where('day', '>=', monthStartDay(month.month))
    .where('day', '<', monthStartDay(month.month + 1))
    .where('entity_key', '=', e.entity_key)
    .where('plays', '>', 0)
    .orderBy('day', order(edge))
    .limit(1)
    .executeTakeFirst();
  if (!day) return undefined;
  const play = await trx
    .selectFrom('dashboard_scrobbles')
    .select('uts')
    .where('user_key', '=', e.user_key)
    .where('listener', '=', e.listener)
    .where('uts', '>=', day.day * DAY_SECONDS)
    .where('uts', '<', (day.day + 1) * DAY_SECONDS)
    .where(`${e.kind}_key`, '=', e.entity_key)
    .orderBy('uts', order(edge))
    .limit(1)
    .executeTakeFirst();
  return play?.uts;
}
