import { type Transaction, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { insertJsonRows } from '../../infra/db/json-rows.ts';
import type { Projector, StoredEvent } from '../../infra/projections/projector.ts';
import type { ScrobbleEvent } from '../../shared/events/scrobbles.events.ts';
import type { EntityEvent } from '../../shared/events/canonical.events.ts';
import { classifyScrobble } from '../../shared/scrobbles/invalid.ts';
import { listenerKey } from '../../shared/scrobbles/listener.ts';
import { assertNever } from '../../shared/never.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { Delta, ENTITY_KINDS, type ScrobbleRow, entityKeys, recordedIds, scrobbleRow } from './dashboard-delta.ts';
import { flushDelta } from './dashboard-flush.ts';
import { applyMerge, resolveKeys } from './dashboard-merges.ts';
import { applyUnmerge } from './dashboard-unmerges.ts';

type Trx = Transaction<Database>;
type Imported = Extract<ScrobbleEvent, { type: 'ScrobblesImported' }>;
type Handled = ScrobbleEvent | Extract<EntityEvent, { type: 'EntityMergedInto' | 'EntityUnmerged' }>;
const CHUNK = 1000;

/**
 * The scrobbler dashboard: per-user daily aggregates per entity, first and last plays, heatmap
 * counters and streaks, all kept in step with the scrobbles stream. Each scrobble is counted once:
 * its row in dashboard_scrobbles is the guard, so applying an event twice changes nothing.
 */
export const dashboardProjector: Projector = {
  name: 'scrobbler_dashboard',
  // Version 2: scrobble rows keep the ids they were recorded with (an unmerge moves those back).
  version: 2,
  handles: ['ScrobblesImported', 'ScrobbleCanonicalLinked', 'ScrobblesDeleted', 'EntityMergedInto', 'EntityUnmerged'],
  tables: [
    'dashboard_scrobbles', 'dashboard_invalid', 'dashboard_totals', 'dashboard_days', 'dashboard_hours',
    'dashboard_heatmap', 'dashboard_entity_days', 'dashboard_entity_months', 'dashboard_entities', 'dashboard_streaks', 'dashboard_redirects',
  ],
  weight: (event) =>
    event.type === 'ScrobblesImported' ? event.data.scrobbles.length : event.type === 'ScrobblesDeleted' ? event.data.scrobble_ids.length : 1,
  apply: async (trx, events) => {
    let i = 0;
    while (i < events.length) {
      // Consecutive pages are counted together: one set of upserts for the whole run.
      const run: (StoredEvent & Imported)[] = [];
      while (i < events.length && events[i]!.type === 'ScrobblesImported') run.push(events[i++] as StoredEvent & Imported);
      if (run.length > 0) await applyImports(trx, run);
      else await applyOne(trx, events[i++] as StoredEvent & Handled);
    }
  },
};

async function applyOne(trx: Trx, event: StoredEvent & Handled): Promise<void> {
  switch (event.type) {
    case 'ScrobblesImported':
      return applyImports(trx, [event]);
    case 'ScrobblesDeleted':
      return applyDeleted(trx, usernameKey(event.data.username), event.data.scrobble_ids);
    case 'ScrobbleCanonicalLinked':
      return applyLinked(trx, usernameKey(event.data.username), event.data);
    case 'EntityMergedInto':
      return applyMerge(trx, event.data.kind, event.data.id, event.data.target_id);
    case 'EntityUnmerged':
      return applyUnmerge(trx, event.data.kind, event.data.id, event.data.target_id, event.data.returning);
    default:
      assertNever(event);
  }
}

async function applyImports(trx: Trx, events: Imported[]): Promise<void> {
  const valid = new Map<string, ScrobbleRow>();
  const invalid = new Map<string, ScrobbleRow & { kind: string }>();
  const imports = new Map<string, { owner: { user_key: string; listener: string }; at: string }>();
  for (const { data } of events) {
    const owner = { user_key: usernameKey(data.username), listener: listenerKey(data.scrobbler_username) };
    const seen = imports.get(`${owner.user_key}|${owner.listener}`);
    if (!seen || Date.parse(data.at) > Date.parse(seen.at)) imports.set(`${owner.user_key}|${owner.listener}`, { owner, at: data.at });
    const importedAtMs = Date.parse(data.at);
    for (const s of data.scrobbles) {
      const row = scrobbleRow(owner, s);
      const kind = classifyScrobble(s.uts, importedAtMs);
      if (kind) invalid.set(`${owner.user_key}|${s.scrobble_id}`, { ...row, kind });
      else valid.set(`${owner.user_key}|${s.scrobble_id}`, row);
    }
  }
  for (const { owner, at } of imports.values()) await touchTotals(trx, owner, at);
  const invalidRows = [...invalid.values()].map((r) => ({ user_key: r.user_key, listener: r.listener, scrobble_id: r.scrobble_id, kind: r.kind, uts: r.uts }));
  for (let i = 0; i < invalidRows.length; i += CHUNK) {
    await trx.insertInto('dashboard_invalid').values(invalidRows.slice(i, i + CHUNK)).onConflict((oc) => oc.doNothing()).execute();
  }
  const rows = await resolveKeys(trx, [...valid.values()]);
  const delta = new Delta();
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const fresh = await freshScrobbles(trx, chunk);
    for (const row of chunk) if (!fresh || fresh.has(`${row.user_key}|${row.scrobble_id}`)) delta.scrobble(row, 1);
  }
  await flushDelta(trx, delta);
}

/**
 * Records the rows and answers the ones that were new, or undefined when all were (an import's
 * usual page): the database names them only when some were counted before, so a page's rows do
 * not cross back to this thread just to be recognised.
 */
async function freshScrobbles(trx: Trx, rows: ScrobbleRow[]): Promise<Set<string> | undefined> {
  const [written] = await trx
    .with('written', (db) => insertJsonRows(db, 'dashboard_scrobbles', rows).onConflict((oc) => oc.doNothing()).returning(['user_key', 'scrobble_id']))
    .selectFrom('written')
    .select(sql<[string, string][] | null>`case when count(*) < ${rows.length} then coalesce(json_agg(json_build_array(user_key, scrobble_id)), '[]') end`.as('fresh'))
    .execute();
  return written?.fresh ? new Set(written.fresh.map(([user, id]) => `${user}|${id}`)) : undefined;
}

/** The mirror exists from its first imported page on, even an empty one. */
async function touchTotals(trx: Trx, owner: { user_key: string; listener: string }, at: string): Promise<void> {
  await trx
    .insertInto('dashboard_totals')
    .values({ ...owner, scrobbles: 0, artists: 0, albums: 0, tracks: 0, last_imported_at: at })
    .onConflict((oc) => oc.columns(['user_key', 'listener']).doUpdateSet({ last_imported_at: sql`greatest(dashboard_totals.last_imported_at, excluded.last_imported_at)` }))
    .execute();
}

async function applyDeleted(trx: Trx, userKey: string, ids: string[]): Promise<void> {
  const delta = new Delta();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    await trx.deleteFrom('dashboard_invalid').where('user_key', '=', userKey).where('scrobble_id', 'in', chunk).execute();
    const gone = await trx.deleteFrom('dashboard_scrobbles').where('user_key', '=', userKey).where('scrobble_id', 'in', chunk).returningAll().execute();
    for (const row of gone) delta.scrobble(row, -1);
  }
  await flushDelta(trx, delta);
}

/** A manual link moves the scrobble's play from the entities it counted under to the new ones. */
async function applyLinked(
  trx: Trx,
  userKey: string,
  link: { scrobble_id: string; canonical_artist_id: string | null; canonical_album_id: string | null; canonical_track_id: string | null },
): Promise<void> {
  const row = await trx.selectFrom('dashboard_scrobbles').selectAll().where('user_key', '=', userKey).where('scrobble_id', '=', link.scrobble_id).executeTakeFirst();
  if (!row) return;
  const [moved] = await resolveKeys(trx, [{ ...row, ...entityKeys({ ...row, ...link }) } as ScrobbleRow]);
  const delta = new Delta();
  for (const kind of ENTITY_KINDS) {
    const from = row[`${kind}_key`];
    const to = moved![`${kind}_key`];
    if (from === to) continue;
    if (from) delta.entity(row, kind, from, -1);
    if (to) delta.entity(moved!, kind, to, 1);
  }
  // The link is what the scrobble is recorded under from now on, even when it counts where it did.
  const recorded = recordedIds(link);
  if (delta.entities.size === 0) {
    await trx.updateTable('dashboard_scrobbles').set(recorded).where('user_key', '=', userKey).where('scrobble_id', '=', link.scrobble_id).execute();
    return;
  }
  await trx
    .updateTable('dashboard_scrobbles')
    .set({ artist_key: moved!.artist_key, album_key: moved!.album_key, track_key: moved!.track_key, ...recorded })
    .where('user_key', '=', userKey)
    .where('scrobble_id', '=', link.scrobble_id)
    .execute();
  await flushDelta(trx, delta);
}
