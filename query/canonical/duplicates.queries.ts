import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { foldName } from '../../shared/names.ts';
import { CanonicalDoc, LIST_COLUMNS, docsFor } from '../../projectors/canonical/canonical-docs.reads.ts';

export const DuplicateGroup = z.object({
  /** The shared key: the folded name, under its artist for albums and tracks. */
  name_folded: z.string(),
  artist_id: z.string().nullable(),
  count: z.number().int(),
  candidates: z.array(CanonicalDoc),
}).meta({ id: 'DuplicateGroup' });

export const DuplicatesPage = z.object({
  kind: z.string(),
  page: z.number().int(),
  limit: z.number().int(),
  has_more: z.boolean(),
  groups: z.array(DuplicateGroup),
});

interface GroupKey {
  name_folded: string;
  artist_id: string | null;
  count: number;
}

/**
 * Groups of at least two live entities sharing a name key (artist: folded name; album and track:
 * artist and folded title), most candidates first. `q` narrows the candidates before grouping: a
 * group of two where only one matches `q` is no group.
 */
export async function duplicateGroups(db: Kysely<Database>, kind: Kind, page: number, limit: number, q: string | undefined) {
  const keys = await groupKeys(db, kind, (page - 1) * limit, limit + 1, q);
  const shown = keys.slice(0, limit);
  return {
    page,
    limit,
    has_more: keys.length > limit,
    groups: await withCandidates(db, kind, shown, q),
  };
}

function candidates(db: Kysely<Database>, kind: Kind, q: string | undefined) {
  let rows = db.selectFrom('canonical_docs').where('kind', '=', kind).where(sql<boolean>`not tombstoned`).where('name_folded', 'is not', null);
  if (kind !== 'artist') rows = rows.where('artist_id', 'is not', null);
  if (q?.trim()) {
    const like = `%${foldName(q).replace(/[%_\\]/g, '\\$&')}%`;
    rows = rows.where((eb) =>
      kind === 'artist'
        ? eb('name_folded', 'like', like)
        : eb.or([
            eb('name_folded', 'like', like),
            eb.exists(eb.selectFrom('canonical_docs as a').select('a.id').whereRef('a.id', '=', 'canonical_docs.artist_id').where('a.name_folded', 'like', like)),
          ]),
    );
  }
  return rows;
}

async function groupKeys(db: Kysely<Database>, kind: Kind, offset: number, take: number, q: string | undefined): Promise<GroupKey[]> {
  const base = candidates(db, kind, q);
  const grouped =
    kind === 'artist'
      ? base.select((eb) => ['name_folded', sql<string | null>`null`.as('artist_id'), eb.fn.countAll<number>().as('count')]).groupBy('name_folded')
      : base.select((eb) => ['name_folded', 'artist_id', eb.fn.countAll<number>().as('count')]).groupBy(['artist_id', 'name_folded']);
  const rows = await grouped
    .having((eb) => eb.fn.countAll(), '>=', 2)
    .orderBy((eb) => eb.fn.countAll(), 'desc')
    .orderBy('name_folded')
    .orderBy(kind === 'artist' ? 'name_folded' : 'artist_id')
    .limit(take)
    .offset(offset)
    .execute();
  return rows.map((r) => ({ name_folded: r.name_folded!, artist_id: r.artist_id ?? null, count: Number(r.count) }));
}

async function withCandidates(db: Kysely<Database>, kind: Kind, keys: GroupKey[], q: string | undefined) {
  if (keys.length === 0) return [];
  const rows = await candidates(db, kind, q)
    .select(LIST_COLUMNS)
    .where('name_folded', 'in', [...new Set(keys.map((k) => k.name_folded))])
    .orderBy('source_count', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const docs = await docsFor(db, rows);
  const keyOf = (nameFolded: string | null, artistId: string | null) => `${kind === 'artist' ? '' : artistId}\u0000${nameFolded}`;
  return keys.map((k) => ({
    ...k,
    candidates: docs.filter((d) => keyOf(d.name_folded ?? d.title_folded ?? null, d.artist_id) === keyOf(k.name_folded, k.artist_id)),
  }));
}
