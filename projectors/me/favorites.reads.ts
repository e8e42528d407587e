import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { CanonicalDoc, docsFor } from '../canonical/canonical-docs.reads.ts';
import { chainEnds, idsEndingAt } from '../canonical/merge-aliases.reads.ts';

/** A favorite as the client renders it: the entity's canonical doc plus when it was added. */
export const FavoriteRow = CanonicalDoc.extend({ canonical_id: z.string(), added_at: z.string() }).meta({ id: 'Favorite' });
export type FavoriteRow = z.infer<typeof FavoriteRow>;

/** Live docs by id, in no particular order. */
export async function docsById(db: Kysely<Database>, kind: Kind, ids: string[]): Promise<CanonicalDoc[]> {
  if (ids.length === 0) return [];
  return docsFor(db, await db.selectFrom('canonical_docs').selectAll().where('kind', '=', kind).where('id', 'in', ids).execute());
}

/** Rows keyed by the end of their merge chain; `combine` folds the rows that meet on one entity. */
export async function groupByChainEnd<R extends { canonical_id: string }, G>(db: Kysely<Database>, rows: R[], combine: (group: G | undefined, row: R) => G): Promise<Map<string, G>> {
  const ends = await chainEnds(db, rows.map((r) => r.canonical_id));
  const groups = new Map<string, G>();
  for (const row of rows) {
    const end = ends.get(row.canonical_id)!;
    groups.set(end, combine(groups.get(end), row));
  }
  return groups;
}

export const newestFirst = (a: { added_at: string; id: string }, b: { added_at: string; id: string }) =>
  b.added_at.localeCompare(a.added_at) || a.id.localeCompare(b.id);

/** The user's favorites of a kind, newest first; `only` narrows to one entity (any id of its chain). */
export async function listFavorites(db: Kysely<Database>, userKey: string, kind: Kind, only?: string): Promise<FavoriteRow[]> {
  let query = db.selectFrom('favorites').select(['canonical_id', 'added_at']).where('username_key', '=', userKey).where('kind', '=', kind);
  if (only) query = query.where('canonical_id', 'in', (await idsEndingAt(db, kind, [only])).get(only)!);
  const earliest = await groupByChainEnd<{ canonical_id: string; added_at: Date }, Date>(db, await query.execute(), (at, row) => (at && at < row.added_at ? at : row.added_at));
  const docs = await docsById(db, kind, [...earliest.keys()]);
  return docs.map((doc) => ({ ...doc, canonical_id: doc.id, added_at: earliest.get(doc.id)!.toISOString() })).sort(newestFirst);
}
