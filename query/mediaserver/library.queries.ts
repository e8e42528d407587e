import { type Kysely, type Selectable, sql } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import type { MediaserverItemsTable } from '../../projectors/mediaserver/library.table.ts';
import { foldName } from '../../shared/names.ts';

export const MirrorItemRow = z.object({
  server_id: z.string(),
  section_id: z.string(),
  rating_key: z.string(),
  kind: z.string(),
  title: z.string(),
  parent_rating_key: z.string().nullable(),
  parent_title: z.string().nullable(),
  grandparent_title: z.string().nullable(),
  index: z.number().int().nullable(),
  disc: z.number().int().nullable(),
  year: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  genres: z.array(z.string()),
  added_at: z.number().int().nullable(),
  updated_at: z.number().int().nullable(),
  audio_quality: z.object({ codec: z.string().nullable(), container: z.string().nullable(), bit_depth: z.number().int().nullable(), lossless: z.boolean() }).nullable(),
  canonical_id: z.string().nullable(),
  deleted: z.boolean(),
  deleted_at: z.string().nullable(),
});
export type MirrorItemRow = z.infer<typeof MirrorItemRow>;

export function toRow(r: Selectable<MediaserverItemsTable>): MirrorItemRow {
  return {
    server_id: r.server_id,
    section_id: r.section_id,
    rating_key: r.rating_key,
    kind: r.kind,
    title: r.title,
    parent_rating_key: r.parent_rating_key,
    parent_title: r.parent_title,
    grandparent_title: r.grandparent_title,
    index: r.item_index,
    disc: r.disc,
    year: r.year,
    duration_ms: r.duration_ms,
    genres: r.genres,
    added_at: r.added_at,
    updated_at: r.server_updated_at,
    audio_quality: r.kind === 'track' ? { codec: r.codec, container: r.container, bit_depth: r.bit_depth, lossless: r.lossless === true } : null,
    canonical_id: r.canonical_id,
    deleted: r.deleted,
    deleted_at: r.deleted_at?.toISOString() ?? null,
  };
}

/** The server the mirror last heard from: the configured one, as far as the mirror knows. */
export async function currentServer(db: Kysely<Database>) {
  return db.selectFrom('mediaserver_servers').selectAll().orderBy('listed_at', 'desc').limit(1).executeTakeFirst();
}

/** Substring search over the live items of the music sections. */
export async function searchItems(db: Kysely<Database>, serverId: string, kind: string, text: string, limit: number, offset: number) {
  const pattern = `%${foldName(text).replace(/[%_\\]/g, '\\$&')}%`;
  const rows = await db
    .selectFrom('mediaserver_items')
    .selectAll()
    .where('server_id', '=', serverId)
    .where('kind', '=', kind)
    .where('deleted', '=', false)
    .where('title_folded', 'like', pattern)
    .orderBy(sql`length(title_folded)`)
    .orderBy('title_folded')
    .orderBy('rating_key')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map(toRow);
}

export async function countsByKind(db: Kysely<Database>, serverId: string) {
  const rows = await db
    .selectFrom('mediaserver_items')
    .select(['kind', 'deleted', (eb) => eb.fn.countAll<number>().as('n')])
    .where('server_id', '=', serverId)
    .groupBy(['kind', 'deleted'])
    .execute();
  const active: Record<string, number> = {};
  const deleted: Record<string, number> = {};
  for (const r of rows) (r.deleted ? deleted : active)[r.kind] = Number(r.n);
  return { active, deleted };
}

/** Albums with at least one track that is not lossless FLAC; most lossy tracks first, then most non-FLAC. */
export async function nonFlacAlbums(db: Kysely<Database>, serverId: string, limit: number) {
  const rows = await db
    .selectFrom('mediaserver_items as t')
    .innerJoin('mediaserver_items as a', (j) => j.onRef('a.server_id', '=', 't.server_id').onRef('a.rating_key', '=', 't.parent_rating_key'))
    .select((eb) => [
      'a.rating_key',
      'a.title',
      'a.parent_title',
      'a.canonical_id',
      'a.section_id',
      eb.fn.countAll<number>().as('tracks'),
      sql<number>`count(*) filter (where coalesce(t.codec, '') <> 'flac')`.as('non_flac_tracks'),
      sql<number>`count(*) filter (where t.lossless is not true)`.as('lossy_tracks'),
      sql<string[]>`array_agg(distinct coalesce(t.codec, 'unknown'))`.as('codecs'),
    ])
    .where('t.server_id', '=', serverId)
    .where('t.kind', '=', 'track')
    .where('t.deleted', '=', false)
    .where('a.deleted', '=', false)
    .groupBy(['a.rating_key', 'a.title', 'a.parent_title', 'a.canonical_id', 'a.section_id'])
    .having(sql<boolean>`count(*) filter (where coalesce(t.codec, '') <> 'flac') > 0`)
    .orderBy(sql`count(*) filter (where t.lossless is not true)`, 'desc')
    .orderBy(sql`count(*) filter (where coalesce(t.codec, '') <> 'flac')::float / count(*)`, 'desc')
    .orderBy('a.title')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    rating_key: r.rating_key,
    section_id: r.section_id,
    title: r.title,
    artist: r.parent_title,
    canonical_id: r.canonical_id,
    tracks: Number(r.tracks),
    non_flac_tracks: Number(r.non_flac_tracks),
    lossy_tracks: Number(r.lossy_tracks),
    codecs: [...r.codecs].sort(),
  }));
}
