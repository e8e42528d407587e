import { type Kysely, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { foldName } from '../../shared/names.ts';

/** A term of the playable library's vocabulary, with how many playable tracks and albums carry it. */
export interface Term {
  name: string;
  count: number;
}

/**
 * The moods (`tags`) or the genres of the playable library: what a radio seeded with one of them
 * can find tracks for. Tracks and albums both carry them (lowercased by the doc composer). A null
 * `limit` lists them all.
 */
export async function playableTerms(db: Kysely<Database>, field: 'tags' | 'genres', limit: number | null): Promise<Term[]> {
  const rows = await sql<{ name: string; count: string | number }>`
    select v.name, count(*) as count
    from canonical_docs d cross join lateral jsonb_array_elements_text(d.${sql.ref(field)}) as v(name)
    where d.kind in ('track', 'album') and not d.tombstoned and (d.sources->>'mediaserver') = 'true'
    group by v.name
    order by count(*) desc, v.name asc
    limit ${limit}`.execute(db);
  return rows.rows.map((r) => ({ name: r.name, count: Number(r.count) }));
}

/** The term of the playable library spelled like `name` (case aside), if there is one. */
export async function playableTerm(db: Kysely<Database>, field: 'tags' | 'genres', name: string): Promise<string | undefined> {
  const wanted = JSON.stringify([name.trim().toLowerCase()]);
  const row = await db
    .selectFrom('canonical_docs')
    .select('id')
    .where('kind', 'in', ['track', 'album'])
    .where(sql<boolean>`not tombstoned and (sources->>'mediaserver') = 'true' and ${sql.ref(field)} @> ${wanted}::jsonb`)
    .limit(1)
    .executeTakeFirst();
  return row ? name.trim().toLowerCase() : undefined;
}

/**
 * The live artist or album whose folded name is exactly the folded `name`; among several, the
 * playable one that most sources confirm.
 */
export async function entityByFoldedName(db: Kysely<Database>, kind: 'artist' | 'album', name: string) {
  return db
    .selectFrom('canonical_docs')
    .select(['id', 'name', 'artist_name'])
    .where('kind', '=', kind)
    .where(sql<boolean>`not tombstoned`)
    .where('name_folded', '=', foldName(name))
    .orderBy(sql`(sources->>'mediaserver') = 'true'`, 'desc')
    .orderBy('source_count', 'desc')
    .orderBy('id')
    .executeTakeFirst();
}
