import { type Kysely, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';

/**
 * Tracks and their audio features, kept in the docs' facts under the features layers read from a
 * metabase recording ref (`+features|metabase|<mbid>`): the backfill's backlog and the status
 * counts read the same layers.
 */

const LIVE_TRACK = sql`d.kind = 'track' and not d.tombstoned`;
const LAYER = `+features|metabase|`;
const lookedUp = sql`exists (select 1 from jsonb_each(d.facts) e where starts_with(e.key, ${LAYER}) and e.value ? 'feature_data')`;
const hasRecordingRef = sql`exists (select 1 from external_refs r where r.entity_id = d.id and r.source = 'metabase')`;

export interface FeaturesItem {
  id: string;
  /** The track's metabase recording id (the first, when it has several). */
  mbid: string;
}

/** Live tracks with a metabase recording ref whose features were never looked up. */
export async function untriedFeatures(db: Kysely<Database>, afterKey: string | null, limit: number): Promise<FeaturesItem[]> {
  const after = afterKey === null ? sql`true` : sql`d.id collate "C" > ${afterKey}`;
  const rows = await sql<FeaturesItem>`
    select d.id, min(r.external_id) as mbid from canonical_docs d
    join external_refs r on r.entity_id = d.id and r.source = 'metabase' and r.kind = 'track'
    where ${LIVE_TRACK} and not ${lookedUp} and ${after}
    group by d.id order by d.id collate "C" limit ${limit}`.execute(db);
  return rows.rows;
}

/** Recording ids looked up (those the features database had, and those it had not), and live tracks never looked up. */
export async function featuresStatus(db: Kysely<Database>) {
  const row = (
    await sql<{ looked_up: number; positive: number; negative: number; remaining: number }>`
    with layers as (
      select substr(e.key, ${LAYER.length + 1}) as mbid, e.value -> 'feature_data' as data
      from canonical_docs d, jsonb_each(d.facts) e
      where ${LIVE_TRACK} and starts_with(e.key, ${LAYER}) and e.value ? 'feature_data')
    select
      (select count(distinct mbid) from layers)::int as looked_up,
      (select count(distinct mbid) from layers where jsonb_typeof(data) = 'object')::int as positive,
      (select count(distinct mbid) from layers where jsonb_typeof(data) = 'null')::int as negative,
      (select count(*) from canonical_docs d where ${LIVE_TRACK} and ${hasRecordingRef} and not ${lookedUp})::int as remaining`.execute(db)
  ).rows[0]!;
  return row;
}
