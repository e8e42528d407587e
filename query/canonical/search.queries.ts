import { type Kysely, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { Engine } from '../../infra/db/create-db.ts';
import { executePrepared } from '../../infra/db/prepared.ts';
import { withRefs } from '../../projectors/canonical/canonical-docs.json.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { foldName } from '../../shared/names.ts';

/**
 * How many live docs of a kind a name search reads in its answer's order (from the index of that
 * order, migration 0006) before it turns to the trigram index. A piece of a name most docs carry
 * ("artist 1" in 1,115 of 2,041 artists) fills a page in the first few dozen; the planner, which
 * cannot tell from the string how many names hold it, fetched and sorted all 1,115 instead.
 */
const SEARCH_WALK = 500;

export interface NameSearch {
  kind: Kind;
  q: string;
  limit: number;
  offset: number;
}

/**
 * One page of a kind's live docs by source count, then name, then id, whose folded name holds the
 * folded `q` (all of them when it is blank), as one JSON array text: each doc's list JSON with its
 * refs. One statement with a plan that does not depend on the string, so it is prepared: the walk
 * in the answer's order when its first `walk` docs (or as many as the page reaches) fill the page,
 * else the trigram index (migration 0185) and a sort of what it finds, of every kind (asked for one
 * kind, the planner paired the trigram index with an index of the kind's 15,000 rows).
 */
export async function searchByName(db: Kysely<Database>, engine: Engine, { kind, q, limit, offset }: NameSearch, walk = SEARCH_WALK): Promise<string> {
  const pattern = q.trim() ? `%${foldName(q).replace(/[%_\\]/g, '\\$&')}%` : '%';
  const wanted = limit + offset;
  const refs = sql`(select coalesce(json_agg(json_build_object('source', r.source, 'external_id', r.external_id)
    order by r.source, r.external_id), '[]') from external_refs r where r.entity_id = c.id)`;
  const query = sql<{ docs: string }>`
    with walked as materialized (
      select w.id, w.source_count, w.name_folded from (
        select id, source_count, name_folded from canonical_docs where kind = ${kind} and not tombstoned
        order by source_count desc, name_folded, id limit ${Math.max(walk, wanted)}) as w
      where w.name_folded like ${pattern}
      limit ${wanted}),
    walk_fills as (select count(*) = ${wanted} as yes from walked),
    matched as materialized (
      select id, kind, source_count, name_folded from canonical_docs
      where not tombstoned and name_folded like ${pattern} and not (select yes from walk_fills)),
    found as (
      select id, source_count, name_folded from walked where (select yes from walk_fills)
      union all
      select id, source_count, name_folded from matched where kind = ${kind}),
    page as (select * from found order by source_count desc, name_folded, id limit ${limit} offset ${offset})
    select '[' || coalesce(string_agg(${withRefs(sql.ref('c.list_json'), refs)}, ',' order by page.source_count desc, page.name_folded, page.id), '') || ']' as docs
    from page join canonical_docs as c using (id)`.compile(db);
  const { rows } = await executePrepared(db, engine, query);
  return rows[0]!.docs;
}
