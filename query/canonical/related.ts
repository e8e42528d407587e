import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import type { Database } from '../../infra/db/database.ts';
import { cachedCatalog } from '../../infra/upstreams/catalog/cache.ts';
import { catalogClient } from '../../infra/upstreams/catalog/client.ts';
import { similarArtists } from '../../infra/upstreams/scrobbler/similar.ts';
import { foldName } from '../../shared/names.ts';

const SIMILAR = 50;

export const RelatedArtist = z.object({
  name: z.string(),
  name_folded: z.string(),
  /** Which sources list it: `catalog` (related artists), `scrobbler` (similar artists). */
  sources: z.array(z.string()),
  /** 0 to 1 per source that lists it, added up: listed by both ranks above either alone. */
  score: z.number(),
  match: z.number().nullable(),
  catalog_id: z.string().nullable(),
  mbid: z.string().nullable(),
  picture: z.string().nullable(),
  in_library: z.boolean(),
  canonical_id: z.string().nullable(),
}).meta({ id: 'RelatedArtist' });
export type RelatedArtist = z.infer<typeof RelatedArtist>;

type Candidate = Omit<RelatedArtist, 'in_library' | 'canonical_id'>;

/** The catalog's related artists, scored by their place in its list. */
export async function catalogRelated(ctx: AppContext, catalogId: string): Promise<Candidate[]> {
  const { data } = await cachedCatalog(ctx.db, catalogClient(ctx.config)).relatedArtists(catalogId);
  return data.map((a, i) => ({
    name: a.name, name_folded: foldName(a.name), sources: ['catalog'], score: 1 - i / data.length, match: null,
    catalog_id: String(a.id), mbid: null, picture: a.picture_medium ?? a.picture ?? null,
  }));
}

/** The scrobbler's similar artists, scored by their match. */
export async function scrobblerSimilar(ctx: AppContext, artistName: string): Promise<Candidate[]> {
  return (await similarArtists(ctx, artistName, SIMILAR)).map((a) => ({
    name: a.name, name_folded: foldName(a.name), sources: ['scrobbler'], score: a.match, match: a.match,
    catalog_id: null, mbid: a.mbid || null, picture: [...(a.image ?? [])].reverse().find((i) => i['#text'])?.['#text'] ?? null,
  }));
}

/** One entry per folded name: the sources, ids and scores of every list that names it. */
export function mergeCandidates(lists: Candidate[][]): Candidate[] {
  const byName = new Map<string, Candidate>();
  for (const c of lists.flat()) {
    const known = byName.get(c.name_folded);
    if (!known) {
      byName.set(c.name_folded, { ...c, sources: [...c.sources] });
      continue;
    }
    known.sources = [...new Set([...known.sources, ...c.sources])];
    known.score += c.score;
    known.match ??= c.match;
    known.catalog_id ??= c.catalog_id;
    known.mbid ??= c.mbid;
    known.picture ??= c.picture;
  }
  return [...byName.values()];
}

/**
 * The canonical artist each name stands for: by catalog ref, by metabase ref, then by folded
 * name (live artists only).
 */
export async function inLibrary(db: Kysely<Database>, people: { name_folded: string; catalog_id: string | null; mbid: string | null }[]): Promise<(string | null)[]> {
  const refs = async (source: string, ids: string[]) => {
    if (ids.length === 0) return new Map<string, string>();
    const rows = await db.selectFrom('external_refs').select(['external_id', 'entity_id']).where('kind', '=', 'artist').where('source', '=', source).where('external_id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.external_id, r.entity_id]));
  };
  const names = [...new Set(people.map((p) => p.name_folded))];
  const [byCatalog, byMbid, byName] = await Promise.all([
    refs('catalog', people.flatMap((p) => (p.catalog_id ? [p.catalog_id] : []))),
    refs('metabase', people.flatMap((p) => (p.mbid ? [p.mbid] : []))),
    names.length === 0
      ? new Map<string, string>()
      : db
          .selectFrom('canonical_docs')
          .select(['id', 'name_folded'])
          .where('kind', '=', 'artist')
          .where(sql<boolean>`not tombstoned`)
          .where('name_folded', 'in', names)
          .orderBy('source_count', 'desc')
          .orderBy('created_at')
          .execute()
          .then((rows) => new Map([...rows].reverse().map((r) => [r.name_folded!, r.id]))),
  ]);
  return people.map((p) => (p.catalog_id && byCatalog.get(p.catalog_id)) || (p.mbid && byMbid.get(p.mbid)) || byName.get(p.name_folded) || null);
}
