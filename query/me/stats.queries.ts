import { isoMonthOf, isoTime } from '../../shared/scrobbles/calendar.ts';
import type { Db, EntityKind, Owner } from '../scrobbler/listening.queries.ts';

/**
 * The ids whose plays count for an entity: its merge target (chains are collapsed in the canonical
 * read model) and every entity merged into that target, since scrobbles keep the id they were
 * stamped with.
 */
export async function mergedIds(db: Db, id: string): Promise<{ target: string; ids: string[] }> {
  const doc = await db.selectFrom('canonical_docs').select('merged_into').where('id', '=', id).executeTakeFirst();
  const target = doc?.merged_into ?? id;
  const absorbed = await db.selectFrom('canonical_docs').select('id').where('merged_into', '=', target).execute();
  return { target, ids: [target, ...absorbed.map((r) => r.id).filter((x) => x !== target)] };
}

export async function entityStats(db: Db, owner: Owner, kind: EntityKind, ids: string[]) {
  const rows = await db
    .selectFrom('dashboard_entities')
    .select(['plays', 'first_uts', 'last_uts'])
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .where('kind', '=', kind)
    .where('entity_key', 'in', ids)
    .execute();
  const plays = rows.reduce((n, r) => n + r.plays, 0);
  if (plays === 0) return { plays: 0, first_played_at: null, last_played_at: null, plays_by_month: [], rank: null };
  const monthRows = await db
    .selectFrom('dashboard_entity_months')
    .select(['month', 'plays'])
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .where('kind', '=', kind)
    .where('entity_key', 'in', ids)
    .execute();
  const months = new Map<number, number>();
  for (const m of monthRows) months.set(m.month, (months.get(m.month) ?? 0) + m.plays);
  // Sorted by plays so the plays index answers: the count costs the rank, not the library size.
  const morePlayed = db
    .selectFrom('dashboard_entities')
    .select('plays')
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .where('kind', '=', kind)
    .where('plays', '>', plays)
    .where('entity_key', 'not in', ids)
    .orderBy('plays');
  const above = await db.selectFrom(morePlayed.as('m')).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return {
    plays,
    first_played_at: isoTime(Math.min(...rows.map((r) => r.first_uts))),
    last_played_at: isoTime(Math.max(...rows.map((r) => r.last_uts))),
    plays_by_month: [...months].sort(([a], [b]) => a - b).map(([month, n]) => ({ month: isoMonthOf(month), plays: n })),
    rank: Number(above.n) + 1,
  };
}
