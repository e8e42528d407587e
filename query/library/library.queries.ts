import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import type { LibraryFilter, LibrarySort } from '../../shared/library.ts';
import { foldName } from '../../shared/names.ts';
import { CanonicalDoc, type DocRow, LIST_COLUMNS, toDoc } from '../../projectors/canonical/canonical-docs.reads.ts';

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

/**
 * One page of live entities of a kind. The predicates are written as the partial indexes of
 * migration 0006 state them (`not tombstoned`, `sources->>'mediaserver'`), so the planner can use them.
 */
export async function libraryPage(db: Kysely<Database>, kind: Kind, query: LibraryQuery): Promise<LibraryPage> {
  const live = narrow(db.selectFrom('canonical_docs').where('kind', '=', kind).where(sql<boolean>`not tombstoned`), kind, query);
  const page = ordered(live.select(LIST_COLUMNS), query.sort)
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  // One round trip, and the page as one JSON value: decoding 50 wide rows field by field costs
  // more than the query. json_agg keeps the order of the sorted, limited subquery it reads.
  const { items, total } = await db
    .selectNoFrom((eb) => [
      eb.selectFrom(page.as('t')).select(sql<string>`coalesce(json_agg(t), '[]')::text`.as('page')).as('items'),
      live.select((c) => c.fn.countAll<number>().as('n')).as('total'),
    ])
    .executeTakeFirstOrThrow();
  const count = Number(total);
  const rows = JSON.parse(items ?? '[]') as (Omit<DocRow, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string })[];
  return {
    items: rows.map((r) => {
      const { refs: _, ...row } = toDoc({ ...r, created_at: new Date(r.created_at), updated_at: new Date(r.updated_at) }, []);
      return row;
    }),
    total: count,
    page: query.page,
    page_size: query.page_size,
    has_more: query.page * query.page_size < count,
  };
}

function narrow(docs: Docs, kind: Kind, query: LibraryQuery): Docs {
  let out = docs;
  switch (query.filter ?? 'all') {
    case 'playable':
      out = out.where(sql<boolean>`(sources->>'mediaserver') = 'true'`);
      break;
    case 'not_playable':
      out = out.where(sql<boolean>`(sources->>'mediaserver') is distinct from 'true'`);
      break;
    case 'multi_source':
      out = out.where('source_count', '>=', 2);
      break;
    case 'single_source':
      out = out.where('source_count', '=', 1);
      break;
  }
  if (query.genre?.trim()) out = out.where(hasGenre(kind, query.genre.trim().toLowerCase()));
  if (query.q?.trim()) out = out.where('name_folded', 'like', `%${foldName(query.q).replace(/[%_\\]/g, '\\$&')}%`);
  return out;
}

/** Genres live on albums (lowercased by the doc composer): a track or an artist has one through its albums. */
export function hasGenre(kind: Kind, genre: string) {
  const wanted = JSON.stringify([genre]);
  if (kind === 'album') return sql<boolean>`canonical_docs.genres @> ${wanted}::jsonb`;
  if (kind === 'track') {
    return sql<boolean>`(canonical_docs.genres @> ${wanted}::jsonb or exists (
      select 1 from canonical_docs a where a.id = canonical_docs.album_id and a.genres @> ${wanted}::jsonb))`;
  }
  return sql<boolean>`exists (
    select 1 from canonical_docs a
    where a.kind = 'album' and a.artist_id = canonical_docs.id and not a.tombstoned and a.genres @> ${wanted}::jsonb)`;
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
