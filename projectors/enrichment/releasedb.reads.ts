import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { codeCoverage } from './catalog-discovery.reads.ts';

/**
 * releasedb-reproject: albums with a releasedb ref whose cached release row was not yet put onto
 * the doc (no releasedb layer of that ref naming `styles`). Coverage counts with the same predicate.
 */

const CACHED = sql`from canonical_docs d
  join external_refs r on r.entity_id = d.id and r.kind = 'album' and r.source = 'releasedb'
  join releasedb_cache c on c.release_id = r.external_id
  where d.kind = 'album' and not d.tombstoned`;
const NOT_PROJECTED = sql`(d.facts -> ('+releasedb|releasedb|' || r.external_id) -> 'styles') is null`;
const KEY = sql`(d.id || '|' || r.external_id)`;

export interface CachedRelease {
  id: string;
  release_id: string;
  key: string;
  payload: { style?: string[]; genre?: string[]; label?: string[] };
}

export async function unprojectedReleases(db: Kysely<Database>, afterKey: string | null, limit: number): Promise<CachedRelease[]> {
  const after = afterKey === null ? sql`true` : sql`${KEY} collate "C" > ${afterKey}`;
  const rows = await sql<CachedRelease>`
    select d.id, r.external_id as release_id, ${KEY} as key, c.payload ${CACHED} and ${NOT_PROJECTED} and ${after}
    order by ${KEY} collate "C" limit ${limit}`.execute(db);
  return rows.rows;
}

const count = async (db: Kysely<Database>, query: RawBuilder<{ n: number }>) => Number((await query.execute(db)).rows[0]?.n ?? 0);

/** Albums: live, with a releasedb ref, findable by UPC, discover backlog; cached releases and the reproject backlog. */
export async function releasedbCoverage(db: Kysely<Database>) {
  const { albums } = await codeCoverage(db, 'releasedb', ['album']);
  const [cached, unprojected] = await Promise.all([
    count(db, sql`select count(distinct d.id)::int as n ${CACHED}`),
    count(db, sql`select count(distinct d.id)::int as n ${CACHED} and ${NOT_PROJECTED}`),
  ]);
  return { total: albums!.total, with_releasedb_ref: albums!.with_ref, eligible: albums!.eligible, backlog: albums!.backlog, cached, reproject_backlog: unprojected };
}
