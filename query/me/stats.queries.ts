import { isoMonthOf, isoTime } from '../../shared/scrobbles/calendar.ts';
import type { Db, EntityKind, Owner } from '../scrobbler/listening.queries.ts';

/**
 * A merged-away id answers for its merge target: the dashboard projector moved its plays there and
 * keeps the redirect with chains collapsed.
 */
export async function mergeTarget(db: Db, id: string): Promise<string> {
  const redirect = await db.selectFrom('dashboard_redirects').select('to_id').where('from_id', '=', id).executeTakeFirst();
  return redirect?.to_id ?? id;
}

export async function entityStats(db: Db, owner: Owner, kind: EntityKind, id: string) {
  const rows = await db
    .selectFrom('dashboard_entities')
    .select(['plays', 'first_uts', 'last_uts'])
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .where('kind', '=', kind)
    .where('entity_key', '=', id)
    .execute();
  const plays = rows.reduce((n, r) => n + r.plays, 0);
  if (plays === 0) return { plays: 0, first_played_at: null, last_played_at: null, plays_by_month: [], rank: null };
  const monthRows = await db
    .selectFrom('dashboard_entity_months')
    .select(['month', 'plays'])
    .where('user_key', '=', owner.user_key)
    .where('listener', '=', owner.listener)
    .where('kind', '=', kind)
    .where('entity_key', '=', id)
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
    .where('entity_key', '!=', id)
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
