import { type Kysely, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { Engine } from '../../infra/db/create-db.ts';
import { executePrepared } from '../../infra/db/prepared.ts';
import { jsonArray } from '../../infra/db/json-rows.ts';
import { withRefs } from '../../projectors/canonical/canonical-docs.json.ts';
import { docsInOrder, docsRevision } from '../../projectors/canonical/canonical-docs.reads.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { KeptPerDatabase } from '../../shared/kept-per-database.ts';
import { foldName } from '../../shared/names.ts';

/**
 * How many live docs of a kind a name search reads in its answer's order (from the index of that
 * order, migration 0006) before it turns to the trigram index. A piece of a name most docs carry
 * ("artist 1" in 1,115 of 2,041 artists) fills a page in the first few dozen; the planner, which
 * cannot tell from the string how many names hold it, fetched and sorted all 1,115 instead.
 */
const SEARCH_WALK = 500;

/**
 * A string the walk does not find a page for is matched by the trigram index, whose bitmap of a
 * string made of common trigrams costs more than the page (`q=song 123` over 180,000 tracks: 1.24 ms
 * of a 1.78 ms statement, intersecting `son`, `ong` and `ng ` with the rare `123`). Asked again while
 * the docs stand (their revision, as the library lists' kept orders), its matches' order is read once
 * and kept, up to this many: each page is then its rows by id. Rare strings are what take that path.
 */
const ORDER_KEPT = 2_000;
/** Searches whose order is kept, the least recently asked dropped first: 100 orders of 2,000 ids are about 16 MB. */
const orders = new KeptPerDatabase<SearchMemo>(100);

interface SearchMemo {
  /** The docs' revision the search was answered at. */
  at: string;
  /** Null: more matches than ORDER_KEPT at that revision, or the docs moved while it was read. */
  order?: string[] | null;
}

export interface NameSearch {
  kind: Kind;
  q: string;
  limit: number;
  offset: number;
}

export interface SearchHow {
  /** Docs read in the answer's order before the trigram index (SEARCH_WALK). */
  walk?: number;
  /** False: every page is searched afresh (a test compares the two). */
  keepOrder?: boolean;
}

/**
 * One page of a kind's live docs by source count, then name, then id, whose folded name holds the
 * folded `q` (all of them when it is blank), as one JSON array text: each doc's list JSON with its
 * refs. One statement with a plan that does not depend on the string, so it is prepared: the walk
 * in the answer's order when its first `walk` docs (or as many as the page reaches) fill the page,
 * else the trigram index (migration 0185) and a sort of what it finds, of every kind (asked for one
 * kind, the planner paired the trigram index with an index of the kind's 15,000 rows).
 */
export async function searchByName(db: Kysely<Database>, engine: Engine, search: NameSearch, { walk = SEARCH_WALK, keepOrder = true }: SearchHow = {}): Promise<string> {
  const { kind, q, limit, offset } = search;
  const pattern = q.trim() ? `%${foldName(q).replace(/[%_\\]/g, '\\$&')}%` : '%';
  const key = JSON.stringify([kind, pattern]);
  const keeps = keepOrder && Boolean(q.trim());
  const memo = keeps ? orders.get(db, key) : undefined;
  if (memo?.order) {
    const kept = await docsInOrder(db, engine, memo.order.slice(offset, offset + limit), WITH_REFS);
    // Still the revision the order was read at: those rows are the page.
    if (kept.at === memo.at) {
      orders.set(db, key, memo);
      return kept.items;
    }
    memo.order = undefined;
  }
  const found = await searched(db, engine, kind, pattern, limit, offset, walk);
  if (keeps && !found.walked && found.at !== null) {
    if (memo?.at !== found.at) orders.set(db, key, { at: found.at });
    // Asked again at the revision it was answered at: the docs stand, so its order is worth reading
    // (while they change, as during an import, each request would pay for it and use it once).
    else if (memo.order === undefined) {
      memo.order = (await orderAt(db, kind, pattern, found.at)) ?? null;
      orders.set(db, key, memo);
    }
  }
  return found.docs;
}

/** A doc's refs as a JSON list, for the doc `c`. */
const REFS = sql`(select coalesce(json_agg(json_build_object('source', r.source, 'external_id', r.external_id)
    order by r.source, r.external_id), '[]') from external_refs r where r.entity_id = c.id)`;

/** A doc `c` as a search answers it: its list JSON with its refs. */
const WITH_REFS = withRefs(sql.ref('c.list_json'), REFS);

/** The search's page, whether the walk found it, and the docs' revision. */
async function searched(db: Kysely<Database>, engine: Engine, kind: Kind, pattern: string, limit: number, offset: number, walk: number) {
  const wanted = limit + offset;
  const query = sql<{ at: string | null; walked: boolean; docs: string }>`
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
    select (${docsRevision(db)}) as at, (select yes from walk_fills) as walked,
      '[' || coalesce(string_agg(${WITH_REFS}, ',' order by page.source_count desc, page.name_folded, page.id), '') || ']' as docs
    from page join canonical_docs as c using (id)`.compile(db);
  const { rows } = await executePrepared(db, engine, query);
  return rows[0]!;
}

/**
 * The ids of every live doc of the kind whose folded name holds the pattern, in the answer's order,
 * if the docs are still at revision `at` and there are at most ORDER_KEPT. Matched over every kind
 * and then narrowed, as the search is (the planner would pair the trigram index with the kind's).
 */
async function orderAt(db: Kysely<Database>, kind: Kind, pattern: string, at: string): Promise<string[] | undefined> {
  const { rows } = await sql<{ at: string | null; ids: string[] | string | null }>`
    with matched as materialized (select id, kind, source_count, name_folded from canonical_docs where not tombstoned and name_folded like ${pattern})
    select (${docsRevision(db)}) as at, (select json_agg(o.id) from (
      select id from matched where kind = ${kind} order by source_count desc, name_folded, id limit ${ORDER_KEPT + 1}) as o) as ids`.execute(db);
  const ids = jsonArray(rows[0]!.ids);
  return rows[0]!.at === at && ids.length <= ORDER_KEPT ? ids : undefined;
}
