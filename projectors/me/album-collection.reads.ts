import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import type { AlbumCollectionTable } from './album-collection.table.ts';
import { CanonicalDoc } from '../canonical/canonical-docs.reads.ts';
import { docsById, groupByChainEnd, newestFirst } from './favorites.reads.ts';
import { idsEndingAt } from '../canonical/merge-aliases.reads.ts';

export const CollectionStatus = z.enum(['wishlisted', 'owned']);
export type CollectionStatus = z.infer<typeof CollectionStatus>;

/** An album of the wishlist or the owned list; an owned album keeps when it was wished for. */
export const AlbumCollectionRow = CanonicalDoc.extend({
  canonical_id: z.string(),
  status: CollectionStatus,
  wishlisted_at: z.string().nullable(),
  owned_at: z.string().nullable(),
  /** When it entered the list it is shown in. */
  added_at: z.string(),
}).meta({ id: 'CollectionAlbum' });
export type AlbumCollectionRow = z.infer<typeof AlbumCollectionRow>;

interface Entry {
  status: CollectionStatus;
  wishlisted_at: Date | null;
  owned_at: Date | null;
}

const earliest = (a: Date | null, b: Date | null) => (a && b ? (a < b ? a : b) : (a ?? b));

/** Streams that meet on one album after a merge: owned wins, and the earliest times are kept. */
function combine(entry: Entry | undefined, row: Selectable<AlbumCollectionTable>): Entry {
  if (!entry) return { status: row.status, wishlisted_at: row.wishlisted_at, owned_at: row.owned_at };
  return {
    status: entry.status === 'owned' || row.status === 'owned' ? 'owned' : 'wishlisted',
    wishlisted_at: earliest(entry.wishlisted_at, row.wishlisted_at),
    owned_at: earliest(entry.owned_at, row.owned_at),
  };
}

/** The user's albums, newest first; `status` picks a list, `only` narrows to one album (any id of its chain). */
export async function listAlbums(db: Kysely<Database>, userKey: string, filter: { status?: CollectionStatus; only?: string }): Promise<AlbumCollectionRow[]> {
  let query = db.selectFrom('album_collection').selectAll().where('username_key', '=', userKey);
  if (filter.only) query = query.where('canonical_id', 'in', (await idsEndingAt(db, 'album', [filter.only])).get(filter.only)!);
  const entries = await groupByChainEnd(db, await query.execute(), combine);
  const wanted = [...entries].filter(([, e]) => !filter.status || e.status === filter.status).map(([id]) => id);
  const docs = await docsById(db, 'album', wanted);
  return docs
    .map((doc) => {
      const e = entries.get(doc.id)!;
      const iso = (d: Date | null) => d?.toISOString() ?? null;
      return { ...doc, canonical_id: doc.id, status: e.status, wishlisted_at: iso(e.wishlisted_at), owned_at: iso(e.owned_at), added_at: iso(e.status === 'owned' ? e.owned_at : e.wishlisted_at)! };
    })
    .sort(newestFirst);
}
