import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { Delta, EntityKind, Owner } from './dashboard-delta.ts';

type Trx = Transaction<Database>;

/** Removals happen per event and touch few days: every delete below is bounded by those days or keys. */
function touchedByOwner<T extends Owner>(entries: Iterable<T>): Map<string, { owner: Owner; items: T[] }> {
  const out = new Map<string, { owner: Owner; items: T[] }>();
  for (const e of entries) {
    const k = `${e.user_key}\u0000${e.listener}`;
    if (!out.has(k)) out.set(k, { owner: { user_key: e.user_key, listener: e.listener }, items: [] });
    out.get(k)!.items.push(e);
  }
  return out;
}

export async function dropEmptyDays(trx: Trx, delta: Delta) {
  const gone: (Owner & { day: number })[] = [];
  for (const { owner, items } of touchedByOwner(delta.days.values()).values()) {
    const rows = await trx
      .deleteFrom('dashboard_days')
      .where('user_key', '=', owner.user_key)
      .where('listener', '=', owner.listener)
      .where('day', 'in', items.map((d) => d.day))
      .where('plays', '<=', 0)
      .returning(['user_key', 'listener', 'day'])
      .execute();
    gone.push(...rows);
  }
  return gone.sort((a, b) => a.day - b.day);
}

export async function dropEmptyCounters(trx: Trx, delta: Delta): Promise<void> {
  for (const { owner, items } of touchedByOwner(delta.days.values()).values()) {
    const days = items.map((d) => d.day);
    await trx.deleteFrom('dashboard_hours').where('user_key', '=', owner.user_key).where('listener', '=', owner.listener).where('day', 'in', days).where('plays', '<=', 0).execute();
    await trx.deleteFrom('dashboard_heatmap').where('user_key', '=', owner.user_key).where('listener', '=', owner.listener).where('plays', '<=', 0).execute();
  }
  // Entity rows are keyed by entity, not by the days above: clear the ones the removals emptied.
  for (const e of delta.entityMonths.values()) {
    if (e.plays >= 0) continue;
    await trx
      .deleteFrom('dashboard_entity_months')
      .where('user_key', '=', e.user_key)
      .where('listener', '=', e.listener)
      .where('kind', '=', e.kind)
      .where('entity_key', '=', e.entity_key)
      .where('month', '=', e.month)
      .where('plays', '<=', 0)
      .execute();
  }
  for (const e of delta.entityDays.values()) {
    if (e.plays >= 0) continue;
    await trx
      .deleteFrom('dashboard_entity_days')
      .where('user_key', '=', e.user_key)
      .where('listener', '=', e.listener)
      .where('kind', '=', e.kind)
      .where('day', '=', e.day)
      .where('entity_key', '=', e.entity_key)
      .where('plays', '<=', 0)
      .execute();
  }
}

export async function dropEmptyEntities(trx: Trx, delta: Delta) {
  const gone: (Owner & { kind: EntityKind })[] = [];
  for (const e of delta.entities.values()) {
    if (e.plays > 0) continue;
    const row = await trx
      .deleteFrom('dashboard_entities')
      .where('user_key', '=', e.user_key)
      .where('listener', '=', e.listener)
      .where('kind', '=', e.kind)
      .where('entity_key', '=', e.entity_key)
      .where('plays', '<=', 0)
      .returning(['kind'])
      .executeTakeFirst();
    if (row) gone.push({ user_key: e.user_key, listener: e.listener, kind: e.kind });
  }
  return gone;
}
