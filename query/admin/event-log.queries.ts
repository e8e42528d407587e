import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import { SOURCES } from '../../shared/events/canonical.events.ts';

const Int = z.number().int();

export const EventLogCounts = z.object({
  events: Int,
  streams: Int,
  oldest_at: z.string().nullable(),
  newest_at: z.string().nullable(),
  by_category: z.record(z.string(), Int).describe('events per stream category (`artist`, `scrobbles`, `task`, …)'),
});

const EntityCounts = z.object({ total: Int.describe('ever registered'), live: Int, merged: Int });
export const CanonicalCounts = z.object({
  artists: EntityCounts,
  albums: EntityCounts,
  tracks: EntityCounts,
  refs: Int.describe('external refs owned by an entity'),
  refs_by_source: z.record(z.string(), Int),
});

const PLURAL = { artist: 'artists', album: 'albums', track: 'tracks' } as const;

/**
 * The log and the canonical layer as the db_counters projector counted them: a few dozen rows,
 * whatever the size of the log (the projector's own position and lag are in the read models' list).
 */
export async function countedLog(db: Kysely<Database>): Promise<{ log: z.infer<typeof EventLogCounts>; canonical: z.infer<typeof CanonicalCounts> }> {
  const [types, refs] = await Promise.all([db.selectFrom('event_counts').selectAll().execute(), db.selectFrom('ref_counts').selectAll().execute()]);
  const log: z.infer<typeof EventLogCounts> = { events: 0, streams: 0, oldest_at: null, newest_at: null, by_category: {} };
  let oldest: Date | undefined;
  let newest: Date | undefined;
  const entities = { artists: { total: 0, live: 0, merged: 0 }, albums: { total: 0, live: 0, merged: 0 }, tracks: { total: 0, live: 0, merged: 0 } };
  for (const row of types) {
    const events = Number(row.events);
    log.events += events;
    log.streams += Number(row.streams);
    log.by_category[row.category] = (log.by_category[row.category] ?? 0) + events;
    if (!oldest || row.first_at < oldest) oldest = row.first_at;
    if (!newest || row.last_at > newest) newest = row.last_at;
    const plural = PLURAL[row.category as keyof typeof PLURAL];
    if (plural && row.event_type === 'EntityRegistered') entities[plural].total += events;
    if (plural && row.event_type === 'EntityMergedInto') entities[plural].merged += events;
    // An undone merge stands again.
    if (plural && row.event_type === 'EntityUnmerged') entities[plural].merged -= events;
  }
  log.oldest_at = oldest?.toISOString() ?? null;
  log.newest_at = newest?.toISOString() ?? null;
  for (const counts of Object.values(entities)) counts.live = counts.total - counts.merged;
  const refs_by_source = Object.fromEntries(SOURCES.map((s) => [s, 0])) as Record<string, number>;
  for (const row of refs) refs_by_source[row.source] = (refs_by_source[row.source] ?? 0) + Number(row.refs);
  const canonical = { ...entities, refs: Object.values(refs_by_source).reduce((a, b) => a + b, 0), refs_by_source };
  return { log, canonical };
}
