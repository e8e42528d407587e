import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';

/**
 * What discover-catalog has left: tracks with an ISRC and albums with a UPC but no catalog ref,
 * and artists without one whose album or track has one (the sibling it is found through). Never by
 * name. The coverage route counts with the same predicates.
 */

/** The sources discovered by exact code: the catalog (artists too, through a sibling), the store and the releasedb. */
export type CodeSource = 'catalog' | 'store' | 'releasedb';
const hasRef = (source: CodeSource) => sql`exists (select 1 from external_refs r where r.entity_id = d.id and r.source = ${source})`;
const CODE: Record<'album' | 'track', RawBuilder<unknown>> = { track: sql`d.isrc`, album: sql`d.upc` };
/** The catalog id of one live album or track of the artist that has one. */
const SIBLING = sql`(select r.external_id from canonical_docs s join external_refs r on r.entity_id = s.id and r.source = 'catalog'
  where s.artist_id = d.id and s.kind in ('album', 'track') and not s.tombstoned order by s.kind, r.external_id limit 1)`;
const SIBLING_KIND = sql`(select s.kind from canonical_docs s join external_refs r on r.entity_id = s.id and r.source = 'catalog'
  where s.artist_id = d.id and s.kind in ('album', 'track') and not s.tombstoned order by s.kind, r.external_id limit 1)`;

function eligible(kind: Kind) {
  const live = sql`d.kind = ${kind} and not d.tombstoned`;
  return kind === 'artist' ? sql`${live} and ${SIBLING} is not null` : sql`${live} and ${CODE[kind]} is not null`;
}

export interface CatalogCandidate {
  id: string;
  /** The ISRC or UPC; for an artist, the catalog id of its sibling. */
  code: string;
  /** For an artist: whether the sibling is an album or a track. */
  via: 'album' | 'track' | null;
}

export async function undiscovered(db: Kysely<Database>, kind: Kind, afterKey: string | null, limit: number, source: CodeSource = 'catalog'): Promise<CatalogCandidate[]> {
  const after = afterKey === null ? sql`true` : sql`d.id collate "C" > ${afterKey}`;
  const code = kind === 'artist' ? SIBLING : CODE[kind];
  const via = kind === 'artist' ? SIBLING_KIND : sql`null`;
  const rows = await sql<CatalogCandidate>`
    select d.id, ${code} as code, ${via} as via from canonical_docs d
    where ${eligible(kind)} and not ${hasRef(source)} and ${after}
    order by d.id collate "C" limit ${limit}`.execute(db);
  return rows.rows;
}

const count = async (db: Kysely<Database>, query: RawBuilder<{ n: number }>) => Number((await query.execute(db)).rows[0]?.n ?? 0);

/** Per kind: live entities, those with a ref of the source, those a look-up could find (ISRC, UPC, linked sibling), and the backlog. */
export async function codeCoverage(db: Kysely<Database>, source: CodeSource, kinds: Kind[]) {
  const out: Record<string, { total: number; with_ref: number; eligible: number; backlog: number }> = {};
  for (const kind of kinds) {
    const live = sql`d.kind = ${kind} and not d.tombstoned`;
    const [total, linked, findable, backlog] = await Promise.all([
      count(db, sql`select count(*)::int as n from canonical_docs d where ${live}`),
      count(db, sql`select count(*)::int as n from canonical_docs d where ${live} and ${hasRef(source)}`),
      count(db, sql`select count(*)::int as n from canonical_docs d where ${eligible(kind)}`),
      count(db, sql`select count(*)::int as n from canonical_docs d where ${eligible(kind)} and not ${hasRef(source)}`),
    ]);
    out[`${kind}s`] = { total, with_ref: linked, eligible: findable, backlog };
  }
  return out;
}

export async function catalogCoverage(db: Kysely<Database>) {
  const out = await codeCoverage(db, 'catalog', ['artist', 'album', 'track']);
  const renamed = (c: (typeof out)[string]) => ({ total: c.total, with_catalog_ref: c.with_ref, eligible: c.eligible, backlog: c.backlog });
  return { artists: renamed(out.artists!), albums: renamed(out.albums!), tracks: renamed(out.tracks!) };
}

export async function storeCoverage(db: Kysely<Database>) {
  const out = await codeCoverage(db, 'store', ['album', 'track']);
  const renamed = (c: (typeof out)[string]) => ({ total: c.total, with_store_ref: c.with_ref, eligible: c.eligible, backlog: c.backlog });
  return { albums: renamed(out.albums!), tracks: renamed(out.tracks!) };
}
