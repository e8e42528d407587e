import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';

/**
 * What the metabase drains have left to do and what they did, read from the canonical read models
 * and the metabase cache. The drains walk these backlogs (keys compare bytewise: `collate "C"`);
 * the coverage routes count them with the same predicates.
 */

/** The cache kinds a metabase ref of each entity kind is hydrated into (an album's ref is a release group or a release). */
export const CACHE_KINDS: Record<Kind, string[]> = { artist: ['artist'], album: ['release-group', 'release'], track: ['recording'] };

const after = (column: RawBuilder<unknown>, key: string | null) => (key === null ? sql`true` : sql`${column} collate "C" > ${key}`);
const cached = (kind: Kind, mbid: RawBuilder<unknown>) =>
  sql`exists (select 1 from metabase_cache c where c.kind in (${sql.join(CACHE_KINDS[kind])}) and c.key = lower(${mbid}) and c.found)`;
/** The doc holds a metabase enrichment that names `field` (even empty: it was looked for). */
const enrichedWith = (field: string) => sql`exists (select 1 from jsonb_each(d.facts) e where e.key like '+metabase|%' and e.value ? ${field})`;
const hasMetabaseRef = sql`exists (select 1 from external_refs r where r.entity_id = d.id and r.source = 'metabase')`;

export interface RefItem {
  id: string;
  mbid: string;
  key: string;
}

/** Metabase refs of `kind` whose entity the cache does not hold yet. */
export async function unhydratedRefs(db: Kysely<Database>, kind: Kind, afterKey: string | null, limit: number): Promise<RefItem[]> {
  const key = sql`(r.entity_id || '|' || r.external_id)`;
  const rows = await sql<RefItem>`
    select r.entity_id as id, r.external_id as mbid, ${key} as key from external_refs r
    where r.kind = ${kind} and r.source = 'metabase' and not ${cached(kind, sql`r.external_id`)} and ${after(key, afterKey)}
    order by ${key} collate "C" limit ${limit}`.execute(db);
  return rows.rows;
}

/** Live entities of `kind` with a metabase ref whose enrichment does not name `field` yet (one ref each). */
export async function unenrichedWith(db: Kysely<Database>, kind: Kind, field: string, afterKey: string | null, limit: number): Promise<RefItem[]> {
  const rows = await sql<RefItem>`
    select d.id, min(r.external_id) as mbid, d.id as key from canonical_docs d
    join external_refs r on r.entity_id = d.id and r.source = 'metabase' and r.kind = ${kind}
    where d.kind = ${kind} and not d.tombstoned and not ${enrichedWith(field)} and ${after(sql`d.id`, afterKey)}
    group by d.id order by d.id collate "C" limit ${limit}`.execute(db);
  return rows.rows;
}

/** The MBID a scrobbler ref reported for the entity, when it has no metabase ref yet. */
export async function scrobblerMbids(db: Kysely<Database>, kind: Kind, afterKey: string | null, limit: number): Promise<RefItem[]> {
  const reported = sql`(select e.value->>'mbid' from jsonb_each(d.facts) e where e.key like 'scrobbler|%' and coalesce(e.value->>'mbid', '') <> '' order by e.key limit 1)`;
  const rows = await sql<RefItem>`
    select d.id, ${reported} as mbid, d.id as key from canonical_docs d
    where d.kind = ${kind} and not d.tombstoned and not ${hasMetabaseRef} and ${reported} is not null and ${after(sql`d.id`, afterKey)}
    order by d.id collate "C" limit ${limit}`.execute(db);
  return rows.rows;
}

export interface CodeItem {
  id: string;
  code: string;
  name: string | null;
  key: string;
}

/** Live tracks with an ISRC (`isrc`) or albums with a UPC (`upc`) and no metabase ref. */
export async function unlinkedByCode(db: Kysely<Database>, column: 'isrc' | 'upc', afterKey: string | null, limit: number): Promise<CodeItem[]> {
  const kind = column === 'isrc' ? 'track' : 'album';
  const rows = await sql<CodeItem>`
    select d.id, d.${sql.raw(column)} as code, d.name, d.id as key from canonical_docs d
    where d.kind = ${kind} and not d.tombstoned and d.${sql.raw(column)} is not null and not ${hasMetabaseRef} and ${after(sql`d.id`, afterKey)}
    order by d.id collate "C" limit ${limit}`.execute(db);
  return rows.rows;
}

const count = async (db: Kysely<Database>, query: RawBuilder<{ n: number }>) => Number((await query.execute(db)).rows[0]?.n ?? 0);

/** Per kind: live entities, those with a metabase ref, and those whose ref the cache holds. */
export async function mbCoverage(db: Kysely<Database>) {
  const out: Record<string, { total: number; with_metabase_ref: number; cached: number; not_cached: number }> = {};
  for (const kind of ['artist', 'album', 'track'] as const) {
    const live = sql`d.kind = ${kind} and not d.tombstoned`;
    const [total, withRef, hydrated] = await Promise.all([
      count(db, sql`select count(*)::int as n from canonical_docs d where ${live}`),
      count(db, sql`select count(*)::int as n from canonical_docs d where ${live} and ${hasMetabaseRef}`),
      count(db, sql`select count(*)::int as n from canonical_docs d where ${live} and exists (select 1 from external_refs r where r.entity_id = d.id and r.source = 'metabase' and ${cached(kind, sql`r.external_id`)})`),
    ]);
    out[`${kind}s`] = { total, with_metabase_ref: withRef, cached: hydrated, not_cached: withRef - hydrated };
  }
  return out;
}

/** Entities of `kind` with a metabase ref; how many were enriched with `field`, and how many of those have some. */
export async function enrichmentCoverage(db: Kysely<Database>, kind: Kind, field: string) {
  const eligible = sql`d.kind = ${kind} and not d.tombstoned and ${hasMetabaseRef}`;
  const [withRef, done, nonEmpty] = await Promise.all([
    count(db, sql`select count(*)::int as n from canonical_docs d where ${eligible}`),
    count(db, sql`select count(*)::int as n from canonical_docs d where ${eligible} and ${enrichedWith(field)}`),
    count(db, sql`select count(*)::int as n from canonical_docs d where ${eligible} and ${enrichedWith(field)} and exists (
      select 1 from jsonb_each(d.facts) e where e.key like '+metabase|%' and jsonb_typeof(e.value->${field}) = 'array' and jsonb_array_length(e.value->${field}) > 0
      or e.key like '+metabase|%' and jsonb_typeof(e.value->${field}) = 'object' and e.value->${field} <> '{"writer": [], "composer": [], "lyricist": []}'::jsonb)`),
  ]);
  return { eligible: withRef, enriched: done, with_data: nonEmpty, backlog: withRef - done };
}

/** Live tracks with an ISRC, those of them with a metabase (recording) ref, and the rest. */
export async function isrcLinkStatus(db: Kysely<Database>) {
  const withIsrc = sql`d.kind = 'track' and not d.tombstoned and d.isrc is not null`;
  const [total, linked] = await Promise.all([
    count(db, sql`select count(*)::int as n from canonical_docs d where ${withIsrc}`),
    count(db, sql`select count(*)::int as n from canonical_docs d where ${withIsrc} and ${hasMetabaseRef}`),
  ]);
  return { tracks_with_isrc: total, with_recording_ref: linked, backlog: total - linked };
}
