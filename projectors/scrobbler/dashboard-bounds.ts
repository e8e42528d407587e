import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { DAY_SECONDS } from '../../shared/scrobbles/calendar.ts';
import type { EntityChange } from './dashboard-delta.ts';

type Trx = Transaction<Database>;

/**
 * After an entity lost scrobbles, its first and last play may have gone with them. The entity's
 * daily rows give the first and last day it still has plays; only that day's scrobbles are read to
 * find the exact second, so the cost does not grow with the history.
 */
export async function recomputeBounds(trx: Trx, entities: EntityChange[]): Promise<void> {
  for (const e of entities) {
    const span = await trx
      .selectFrom('dashboard_entity_days')
      .select((eb) => [eb.fn.min('day').as('first'), eb.fn.max('day').as('last')])
      .where('user_key', '=', e.user_key)
      .where('listener', '=', e.listener)
      .where('kind', '=', e.kind)
      .where('entity_key', '=', e.entity_key)
      .where('plays', '>', 0)
      .executeTakeFirst();
    if (span?.first == null || span.last == null) continue;
    const first = await playOn(trx, e, Number(span.first), 'asc');
    const last = await playOn(trx, e, Number(span.last), 'desc');
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

async function playOn(trx: Trx, e: EntityChange, day: number, order: 'asc' | 'desc'): Promise<number | undefined> {
  const row = await trx
    .selectFrom('dashboard_scrobbles')
    .select('uts')
    .where('user_key', '=', e.user_key)
    .where('listener', '=', e.listener)
    .where('uts', '>=', day * DAY_SECONDS)
    .where('uts', '<', (day + 1) * DAY_SECONDS)
    .where(`${e.kind}_key`, '=', e.entity_key)
    .orderBy('uts', order)
    .limit(1)
    .executeTakeFirst();
  return row?.uts;
}
