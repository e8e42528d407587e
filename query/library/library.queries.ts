import { type CompiledQuery, type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import type { Engine } from '../../infra/db/create-db.ts';
import { executePrepared } from '../../infra/db/prepared.ts';
import { jsonArray } from '../../infra/db/json-rows.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import type { LibraryFilter, LibrarySort } from '../../shared/library.ts';
import { foldName } from '../../shared/names.ts';
import { CanonicalDoc, docsInOrder, docsRevision } from '../../projectors/canonical/canonical-docs.reads.ts';
import { JsonText } from '../../infra/http/json-text.ts';
import { KeptPerDatabase } from '../../shared/kept-per-database.ts';
import { type PageStart, recall, remember } from './list-memo.ts';

/** A library row: the canonical doc without its refs (the detail endpoint has those). */
export const LibraryRow = CanonicalDoc.omit({ refs: true });

export const LibraryPage = z.object({
  items: z.array(LibraryRow),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  has_more: z.boolean(),
});
export type LibraryPage = z.infer<typeof LibraryPage>;

export interface LibraryQuery {
  sort: LibrarySort;
  filter?: LibraryFilter | undefined;
  genre?: string | undefined;
  q?: string | undefined;
  page: number;
  page_size: number;
}

type Docs = SelectQueryBuilder<Database, 'canonical_docs', object>;
/** The engine too: the embedded one runs a page as a prepared statement (infra/db/prepared.ts). */
interface Reader {
  db: Kysely<Database>;
  engine: Engine;
}

/**
 * One page of live entities of a kind, as the JSON text the database holds for each row
 * (`list_json`, projectors/canonical/canonical-docs.json.ts).
 * The predicates are written as the partial indexes of migration 0006 state them (`not tombstoned`,
 * `sources->>'mediaserver'`), so the planner can use them.
 *
 * Counting the whole list is what a page costs at scale, so the total is counted once per revision
 * of the canonical docs and reused until the projector writes again (list-memo.ts); a page whose
 * start is known from an earlier answer is read from that key instead of skipping rows by offset.
 * A list no index pages directly (a genre's, a short name substring's) keeps its whole order while
 * the docs stand (ORDER_KEPT); `keepOrder` false reads every page afresh (a test compares the two).
 */
export async function libraryPage({ db, engine }: Reader, kind: Kind, query: LibraryQuery, keepOrder = true): Promise<JsonText<LibraryPage>> {
  const variant = JSON.stringify([kind, query.sort, query.filter ?? 'all', query.genre?.trim().toLowerCase() ?? '', query.q?.trim() ? foldName(query.q) : '', query.page_size]);
  const memo = recall(db, variant);
  if (keepOrder && memo?.order) {
    const ids = memo.order.slice((query.page - 1) * query.page_size, query.page * query.page_size);
    const read = await docsInOrder(db, engine, ids, LIST_JSON);
    // Still the revision the order was read at: those rows are the page.
    if (read.at === memo.at) {
      remember(db, variant, memo);
      return pageAnswer(read.items, memo.total, query);
    }
    delete memo.order;
  }
  // A genre few rows carry (as last counted, at any revision: the choice is of a plan, not of an answer) is read from its albums.
  const fewInGenre = Boolean(query.genre?.trim()) && kind !== 'album' && memo !== undefined && memo.total <= FEW_IN_GENRE;
  let live: Docs | undefined;
  // The kind in the text: a prepared page's one plan may then use the partial indexes of one kind (an album's genres).
  const liveDocs = () => (live ??= narrow(db.selectFrom('canonical_docs').where('kind', '=', sql.lit(kind)).where(sql<boolean>`not tombstoned`), kind, query, fewInGenre));
  const statement = (from: PageStart | undefined) => {
    const key = JSON.stringify([variant, query.page, fewInGenre, from ?? null]);
    const compiled = pageStatements.get(db, key) ?? pageStatement(db, liveDocs(), query, from);
    pageStatements.set(db, key, compiled);
    return compiled;
  };
  // Page 1 is already a range from the index's first key: its start would only add a union to plan.
  // A genre's few rows are sorted whole: skipping into them costs less than a union of ranges.
  const start = query.page > 1 && !fewInGenre ? memo?.starts.get(query.page) : undefined;
  let read = await readPage({ db, engine }, statement(start), query.q);
  // The docs changed since the start key was taken: it may no longer begin this page.
  if (start && read.at !== memo?.at) read = await readPage({ db, engine }, statement(undefined), query.q);
  let total = memo?.total ?? 0;
  const standing = read.at !== null && read.at === memo?.at;
  if (!standing) {
    const counted = await sql<{ at: string | null; n: number | string }>`select (${docsRevision(db)}) as at, (${liveDocs().select((c) => c.fn.countAll().as('n'))}) as n`.execute(db);
    total = Number(counted.rows[0]!.n);
    // Counted at the page's revision: the memo starts over from this page. The docs moved in between: remember nothing.
    if (read.at !== null && counted.rows[0]!.at === read.at) remember(db, variant, { at: read.at, total, starts: new Map() });
  }
  const current = read.at === null ? undefined : recall(db, variant);
  if (current?.at === read.at) {
    // The page is read one row long: that row begins the next page.
    for (const { n, ...key } of read.starts) current.starts.set(n === 1 ? query.page : query.page + 1, key);
    // Asked again at the revision it was counted at: the docs stand, so its order is worth reading
    // (while they change, as during an import, each request would pay for it and use it once).
    if (standing && keepOrder && walksFar(query) && total <= ORDER_KEPT && !current.order) {
      const order = await orderAt(db, liveDocs(), query.sort, read.at!);
      if (order) current.order = order;
    }
    remember(db, variant, current);
  }
  return pageAnswer(read.items, total, query);
}

function pageAnswer(items: string, total: number, query: LibraryQuery): JsonText<LibraryPage> {
  const more = query.page * query.page_size < total;
  return new JsonText(`{"items":${items},"total":${total},"page":${query.page},"page_size":${query.page_size},"has_more":${more}}`);
}

/**
 * A list whose page no index reads directly: a genre's, and a name substring too short for a
 * trigram, which is a walk of the sort's index that fetches every row it passes (on PostgreSQL a
 * page of artists by name with `q=9` passed 324 rows for 51; in bench:reads the `q=9` lists served
 * 0.56-0.69x the ceiling's requests on PostgreSQL, 0.72-1.02x with their order kept).
 */
function walksFar(query: LibraryQuery): boolean {
  return Boolean(query.genre?.trim()) || (Boolean(query.q?.trim()) && !trigrams(query.q));
}

/**
 * Up to this many rows, the order of a list that walks far (walksFar) is read whole when it is asked
 * again at the revision it was counted at, and kept while the docs stand (list-memo.ts): each page is
 * then its rows by id. Neither plan of a genre's page is cheap at scale (walking the sort's index passes
 * the rows outside the genre, and the newest tracks, the scrobbled ones, are in none; starting from
 * the genre's albums sorts all its rows): at 100,000 tracks page 1 of jazz tracks by date served
 * 0.07x the ceiling's requests. A one-character `q` can hold most of a library (`q=9`, about 72,000
 * of 180,000 tracks, walked at 0.59x on PostgreSQL under a cap of 20,000); list-memo.ts bounds the
 * ids kept in all.
 */
const ORDER_KEPT = 100_000;

/** The list's ids in its sort's order, if the docs are still at revision `at`. */
async function orderAt(db: Kysely<Database>, live: Docs, sort: LibrarySort, at: string): Promise<string[] | undefined> {
  const { rows } = await sql<{ at: string | null; ids: string[] | string | null }>`
    select (${docsRevision(db)}) as at, (select json_agg(o.id) from (${ordered(live.select('id'), sort)}) as o) as ids`.execute(db);
  const row = rows[0]!;
  if (row.at !== at) return undefined;
  return jsonArray(row.ids);
}

/** A kept order's rows as the list shows them (docsInOrder). */
const LIST_JSON = sql.ref<string>('c.list_json');

/** What a page reads of each row: its list JSON and its sort keys. */
const PAGE_COLUMNS = ['list_json', 'created_at', 'id', 'name_folded', 'source_count'] as const;

interface PageRow {
  at: string | null;
  items: string;
  starts: Start[] | string | null;
}

/**
 * Page statements as compiled, by variant, page and start: building and compiling one with kysely
 * cost a tenth of a millisecond of CPU, as much as the database's part of a page on PostgreSQL.
 */
const pageStatements = new KeptPerDatabase<CompiledQuery<PageRow>>(1000);

/** One round trip: see pageStatement. */
async function readPage({ db, engine }: Reader, statement: CompiledQuery<PageRow>, q: string | undefined) {
  // A name substring's best plan depends on the string (the trigram index or the sort's index): planned each time.
  const { rows } = await (trigrams(q) ? db.executeQuery(statement) : executePrepared(db, engine, statement));
  const row = rows[0]!;
  return { at: row.at, items: row.items, starts: jsonArray(row.starts) };
}

/**
 * The docs' revision, the page as one JSON value and the sort keys of its first row and of the row
 * after it. The total is counted apart, only when the revision moved (in the same statement, the
 * planner planned the count every time).
 */
function pageStatement(db: Kysely<Database>, live: Docs, query: LibraryQuery, start: PageStart | undefined): CompiledQuery<PageRow> {
  const limit = query.page_size + 1;
  const page = start ? fromStart(live, query.sort, start, limit) : ordered(live.select(PAGE_COLUMNS), query.sort).limit(limit).offset((query.page - 1) * query.page_size);
  // One pass over the page, in its sort's order (the limited subquery's; the aggregates keep it):
  // each row numbered, so that the first `page_size` list JSONs make the items and rows 1 and
  // `limit` give the starts. A CTE read twice, sorted again, cost more than the page.
  return sql<PageRow>`
    select (${docsRevision(db)}) as at,
      '[' || coalesce(string_agg(list_json, ',') filter (where n <= ${query.page_size}), '') || ']' as items,
      json_agg(json_build_object('n', n, 'created_at', created_at, 'id', id, 'name_folded', name_folded, 'source_count', source_count))
        filter (where n in (1, ${limit})) as starts
    from (select *, row_number() over () as n from (${page}) as p) as t`.compile(db);
}

type Start = PageStart & { n: number };

const ORDER = {
  recent: sql`created_at desc, id desc`,
  name: sql`name_folded asc nulls last, id asc`,
  source_count: sql`source_count desc, name_folded asc nulls last, id asc`,
};

/**
 * The rows from `start` on, in the sort's order. Each part is one range of a list index (a row
 * comparison over its columns), so none scans what lies before the start; names sort nulls last,
 * which no single range holds, hence a part for them.
 */
function fromStart(live: Docs, sort: LibrarySort, s: PageStart, limit: number) {
  const part = (n: number, where: RawBuilder<boolean>, order: RawBuilder<unknown>) =>
    sql`select * from (${live.select(PAGE_COLUMNS).select(sql.lit(n).as('part')).where(where).orderBy(order).limit(limit)}) as ${sql.raw(`p${n}`)}`;
  const named = (n: number, rest: RawBuilder<boolean>) =>
    s.name_folded === null
      ? [part(n + 1, sql<boolean>`${rest} and name_folded is null and id >= ${s.id}`, sql`id`)]
      : [part(n, sql<boolean>`${rest} and (name_folded, id) >= (${s.name_folded}, ${s.id})`, sql`name_folded, id`), part(n + 1, sql<boolean>`${rest} and name_folded is null`, sql`id`)];
  const parts =
    sort === 'recent'
      ? [part(0, sql<boolean>`(created_at, id) <= (${s.created_at}::timestamptz, ${s.id})`, ORDER.recent)]
      : sort === 'name'
        ? named(0, sql<boolean>`true`)
        : [...named(0, sql<boolean>`source_count = ${s.source_count}`), part(2, sql<boolean>`source_count < ${s.source_count}`, ORDER.source_count)];
  return sql`select * from (${sql.join(parts, sql` union all `)}) as u order by part, ${ORDER[sort]} limit ${limit}`;
}

function narrow(docs: Docs, kind: Kind, query: LibraryQuery, fewInGenre = false): Docs {
  let out = docs;
  switch (query.filter ?? 'all') {
    case 'playable':
      out = out.where(sql<boolean>`(sources->>'mediaserver') = 'true'`);
      break;
    case 'not_playable':
      out = out.where(sql<boolean>`(sources->>'mediaserver') is distinct from 'true'`);
      break;
    // Literals, as the partial indexes of migration 0186 state them: a prepared page can use those.
    case 'multi_source':
      out = out.where(sql<boolean>`source_count >= 2`);
      break;
    case 'single_source':
      out = out.where(sql<boolean>`source_count = 1`);
      break;
  }
  if (query.genre?.trim()) {
    const genre = query.genre.trim().toLowerCase();
    out = out.where(fewInGenre && kind === 'track' ? tracksFromGenreAlbums(genre) : hasGenre(kind, genre));
  }
  if (query.q?.trim()) {
    const pattern = `%${foldName(query.q).replace(/[%_\\]/g, '\\$&')}%`;
    // Too short for a trigram: always a walk of the sort's index, so the page is prepared with the pattern in its text.
    out = out.where('name_folded', 'like', trigrams(query.q) ? pattern : sql.lit(pattern));
  }
  return out;
}

/** Whether a name substring is long enough for the trigram index (migration 0185): three characters once folded. */
function trigrams(q: string | undefined): boolean {
  return Boolean(q?.trim()) && foldName(q!).length >= 3;
}

/**
 * A genre goes as a literal in the statement's text: how many rows hold it decides the plan (a page
 * runs as a prepared statement with one generic plan, see readPage), and a library has few genres.
 * As a parameter, a page of jazz albums by name served 0.11x the ceiling's requests on PGlite.
 */
const genreValue = (genre: string) => sql.lit(JSON.stringify([genre]));

/** Genres live on albums (lowercased by the doc composer): a track or an artist has one through its albums. */
export function hasGenre(kind: Kind, genre: string) {
  const wanted = genreValue(genre);
  if (kind === 'album') return sql<boolean>`canonical_docs.genres @> ${wanted}::jsonb`;
  if (kind === 'track') {
    return sql<boolean>`(canonical_docs.genres @> ${wanted}::jsonb or exists (
      select 1 from canonical_docs a where a.kind = 'album' and a.id = canonical_docs.album_id and a.genres @> ${wanted}::jsonb))`;
  }
  // The genre's artists as one set: the database may start from it (few) or check the sort's rows against it (many).
  return sql<boolean>`canonical_docs.id in (
    select a.artist_id from canonical_docs a
    where a.kind = 'album' and not a.tombstoned and a.genres @> ${wanted}::jsonb)`;
}

/** Up to this many rows in a genre, a page of tracks or artists is read by offset from the whole sorted set, and tracks start from the genre's albums. */
const FEW_IN_GENRE = 2000;

/**
 * `hasGenre` for tracks of a genre few carry, written for the plan that starts from the genre's
 * albums (their index of genres), takes their tracks and sorts those. The sort's index walked with
 * `hasGenre` passes every row outside the genre first: a library's newest tracks are often the
 * scrobbled ones, in no genre, and page 1 of tracks by date read 9,800 of them before it found 51
 * jazz tracks. A track's own genres are read through their index (migration 0192), which holds the
 * tracks that have some. An array, not a subquery: `album_id = any(...)` is a condition on the
 * albums' index, which the database can OR with the genres' index.
 */
function tracksFromGenreAlbums(genre: string) {
  const wanted = genreValue(genre);
  return sql<boolean>`(canonical_docs.album_id = any(array(select a.id from canonical_docs a where a.kind = 'album' and a.genres @> ${wanted}::jsonb))
    or (canonical_docs.kind = 'track' and canonical_docs.genres <> '[]'::jsonb and canonical_docs.genres @> ${wanted}::jsonb))`;
}

function ordered<O>(docs: SelectQueryBuilder<Database, 'canonical_docs', O>, sort: LibrarySort) {
  switch (sort) {
    case 'recent':
      return docs.orderBy('created_at', 'desc').orderBy('id', 'desc');
    case 'name':
      return docs.orderBy((eb) => eb.ref('name_folded'), (ob) => ob.asc().nullsLast()).orderBy('id');
    case 'source_count':
      return docs.orderBy('source_count', 'desc').orderBy((eb) => eb.ref('name_folded'), (ob) => ob.asc().nullsLast()).orderBy('id');
  }
}

/** Distinct album genres with how many live albums carry each, most common first. */
export async function albumGenres(db: Kysely<Database>, limit: number): Promise<{ genre: string; count: number }[]> {
  const rows = await sql<{ genre: string; count: string | number }>`
    select g.genre, count(*) as count
    from canonical_docs d cross join lateral jsonb_array_elements_text(d.genres) as g(genre)
    where d.kind = 'album' and not d.tombstoned
    group by g.genre
    order by count(*) desc, g.genre asc
    ${limit > 0 ? sql`limit ${limit}` : sql``}`.execute(db);
  return rows.rows.map((r) => ({ genre: r.genre, count: Number(r.count) }));
}
