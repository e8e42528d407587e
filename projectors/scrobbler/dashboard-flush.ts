import { type Transaction, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { insertJsonRows } from '../../infra/db/json-rows.ts';
import { type Delta, type EntityChange, type EntityKind, type Owner } from './dashboard-delta.ts';
import { recomputeBounds } from './dashboard-bounds.ts';
import { dropEmptyCounters, dropEmptyDays, dropEmptyEntities } from './dashboard-removals.ts';
import { addDay, removeDay } from './dashboard-streaks.ts';

type Trx = Transaction<Database>;
const CHUNK = 1000;
const OWNER = ['user_key', 'listener'] as const;
const nonZero = <T extends { plays: number }>(m: Map<string, T>) => [...m.values()].filter((e) => e.plays !== 0);
const inserted = sql<boolean>`(xmax = 0)`.as('inserted');

/**
 * Writes a delta: multi-row upserts that add the counts, then (after removals) drops rows that fell
 * to zero, keeps the per-kind entity counts and the day streaks in step, and recomputes the first
 * and last play of entities that lost a scrobble.
 */
export async function flushDelta(trx: Trx, delta: Delta): Promise<void> {
  const newDays = await upsertDays(trx, nonZero(delta.days));
  await upsertCounters(trx, delta);
  const born = await upsertEntities(trx, [...delta.entities.values()]);
  const counts = new Map<string, Owner & Record<EntityKind | 'scrobbles', number>>();
  const countOf = (o: Owner) => {
    const k = `${o.user_key}\u0000${o.listener}`;
    if (!counts.has(k)) counts.set(k, { user_key: o.user_key, listener: o.listener, scrobbles: 0, artist: 0, album: 0, track: 0 });
    return counts.get(k)!;
  };
  for (const s of delta.scrobbles.values()) countOf(s).scrobbles += s.plays;
  for (const e of born) countOf(e)[e.kind] += e.born;
  for (const d of newDays) await addDay(trx, d, d.day);
  if (delta.hasRemovals) {
    for (const d of await dropEmptyDays(trx, delta)) await removeDay(trx, d, d.day);
    await dropEmptyCounters(trx, delta);
    for (const e of await dropEmptyEntities(trx, delta)) countOf(e)[e.kind] -= 1;
    await recomputeBounds(trx, [...delta.entities.values()].filter((e) => e.plays < 0));
  }
  for (const c of counts.values()) await addToTotals(trx, c);
}

async function upsertDays(trx: Trx, rows: (Owner & { day: number; plays: number })[]) {
  const fresh: (Owner & { day: number })[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const result = await insertJsonRows(trx, 'dashboard_days', rows.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns([...OWNER, 'day']).doUpdateSet({ plays: sql`dashboard_days.plays + excluded.plays` }))
      .returning(['user_key', 'listener', 'day', inserted])
      .execute();
    fresh.push(...result.filter((r) => r.inserted));
  }
  return fresh.sort((a, b) => a.day - b.day);
}

async function upsertCounters(trx: Trx, delta: Delta): Promise<void> {
  const hours = nonZero(delta.hours);
  for (let i = 0; i < hours.length; i += CHUNK) {
    await insertJsonRows(trx, 'dashboard_hours', hours.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns([...OWNER, 'day', 'hour']).doUpdateSet({ plays: sql`dashboard_hours.plays + excluded.plays` }))
      .execute();
  }
  const cells = nonZero(delta.heatmap);
  if (cells.length > 0) {
    await insertJsonRows(trx, 'dashboard_heatmap', cells)
      .onConflict((oc) => oc.columns([...OWNER, 'dow', 'hour']).doUpdateSet({ plays: sql`dashboard_heatmap.plays + excluded.plays` }))
      .execute();
  }
  const entityDays = nonZero(delta.entityDays);
  for (let i = 0; i < entityDays.length; i += CHUNK) {
    await insertJsonRows(trx, 'dashboard_entity_days', entityDays.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns([...OWNER, 'kind', 'day', 'entity_key']).doUpdateSet({ plays: sql`dashboard_entity_days.plays + excluded.plays` }))
      .execute();
  }
  const months = nonZero(delta.entityMonths);
  for (let i = 0; i < months.length; i += CHUNK) {
    await insertJsonRows(trx, 'dashboard_entity_months', months.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns([...OWNER, 'kind', 'entity_key', 'month']).doUpdateSet({ plays: sql`dashboard_entity_months.plays + excluded.plays` }))
      .execute();
  }
}

/**
 * Upserts the entity rows and answers how many of each kind were new per owner. The database
 * counts them: returning every row to count it here cost a third of the statement on PGlite
 * (a page's few hundred rows cross to the service's thread).
 */
async function upsertEntities(trx: Trx, rows: EntityChange[]) {
  const born: (Owner & { kind: EntityKind; born: number })[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const counted = await trx
      .with('written', (db) =>
        insertJsonRows(db, 'dashboard_entities', rows.slice(i, i + CHUNK))
          .onConflict((oc) =>
            oc.columns([...OWNER, 'kind', 'entity_key']).doUpdateSet({
              plays: sql`dashboard_entities.plays + excluded.plays`,
              first_uts: sql`least(dashboard_entities.first_uts, excluded.first_uts)`,
              last_uts: sql`greatest(dashboard_entities.last_uts, excluded.last_uts)`,
              // The name most recently scrobbled is the one shown.
              name: sql`case when excluded.last_uts >= dashboard_entities.last_uts then excluded.name else dashboard_entities.name end`,
              artist_name: sql`case when excluded.last_uts >= dashboard_entities.last_uts then excluded.artist_name else dashboard_entities.artist_name end`,
              artist_key: sql`case when excluded.last_uts >= dashboard_entities.last_uts then excluded.artist_key else dashboard_entities.artist_key end`,
            }),
          )
          .returning([...OWNER, 'kind', inserted]),
      )
      .selectFrom('written')
      .select([...OWNER, 'kind', sql<string>`count(*) filter (where inserted)`.as('born')])
      .groupBy([...OWNER, 'kind'])
      .execute();
    // A row a removal just created (net zero) is dropped again below, and counted out there.
    born.push(...counted.map((r) => ({ user_key: r.user_key, listener: r.listener, kind: r.kind as EntityKind, born: Number(r.born) })));
  }
  return born;
}

async function addToTotals(trx: Trx, c: Owner & Record<EntityKind | 'scrobbles', number>): Promise<void> {
  if (c.scrobbles === 0 && c.artist === 0 && c.album === 0 && c.track === 0) return;
  await trx
    .updateTable('dashboard_totals')
    .set({
      scrobbles: sql`scrobbles + ${c.scrobbles}`,
      artists: sql`artists + ${c.artist}`,
      albums: sql`albums + ${c.album}`,
      tracks: sql`tracks + ${c.track}`,
    })
    .where('user_key', '=', c.user_key)
    .where('listener', '=', c.listener)
    .execute();
}
