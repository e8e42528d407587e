import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { findLiveRow } from '../../projectors/canonical/canonical-docs.reads.ts';

/** A playable track as the pool builder sees it: who, where, and its terms (tags, moods, genres, its album's too). */
export interface CandidateRow {
  id: string;
  name: string | null;
  artist_id: string | null;
  artist_name: string | null;
  album_id: string | null;
  album_title: string | null;
  terms: string[];
}

type TrackQuery = SelectQueryBuilder<Database & { t: Database['canonical_docs'] }, 't', CandidateRow>;

/** Live tracks the media server holds, with their album's terms folded into theirs. */
function playableTracks(db: Kysely<Database>): TrackQuery {
  return db
    .selectFrom('canonical_docs as t')
    .select([
      't.id',
      't.name',
      't.artist_id',
      't.artist_name',
      't.album_id',
      't.album_title',
      sql<string[]>`(select coalesce(jsonb_agg(distinct x), '[]'::jsonb) from jsonb_array_elements_text(
        t.tags || t.genres || coalesce((select al.tags || al.genres from canonical_docs al where al.id = t.album_id), '[]'::jsonb)) as x)`.as('terms'),
    ])
    .where('t.kind', '=', 'track')
    .where(sql<boolean>`not t.tombstoned and (t.sources->>'mediaserver') = 'true'`) as unknown as TrackQuery;
}

/** The live artist, album or track a seed id stands for (a merged-away id answers its target). */
export const seedRow = (db: Kysely<Database>, kind: 'artist' | 'album' | 'track', id: string) => findLiveRow(db, kind, id);

/** Playable tracks of some artists, at most `perArtist` each, in album order. */
export async function tracksByArtists(db: Kysely<Database>, artistIds: string[], perArtist: number): Promise<CandidateRow[]> {
  if (artistIds.length === 0) return [];
  const rows = await playableTracks(db).where('t.artist_id', 'in', artistIds).orderBy('t.album_title').orderBy('t.disc').orderBy('t.track_number').orderBy('t.id').execute();
  const seen = new Map<string, number>();
  return rows.filter((r) => {
    const n = (seen.get(r.artist_id!) ?? 0) + 1;
    seen.set(r.artist_id!, n);
    return n <= perArtist;
  });
}

export function tracksOnAlbum(db: Kysely<Database>, albumId: string): Promise<CandidateRow[]> {
  return playableTracks(db).where('t.album_id', '=', albumId).orderBy('t.disc').orderBy('t.track_number').orderBy('t.id').execute();
}

/** Playable tracks carrying any of `terms` (theirs or their album's), most shared terms first. */
export async function tracksWithTerms(db: Kysely<Database>, terms: string[], limit: number): Promise<CandidateRow[]> {
  if (terms.length === 0) return [];
  const wanted = sql`array[${sql.join(terms.map((t) => sql`${t}`))}]::text[]`;
  const album = sql`coalesce((select al.tags || al.genres from canonical_docs al where al.id = t.album_id), '[]'::jsonb)`;
  return playableTracks(db)
    .where(sql<boolean>`(t.tags ?| ${wanted} or t.genres ?| ${wanted} or ${album} ?| ${wanted})`)
    .orderBy(sql`(select count(distinct x) from jsonb_array_elements_text(t.tags || t.genres || ${album}) as x where x = any(${wanted}))`, 'desc')
    .orderBy('t.id')
    .limit(limit)
    .execute();
}

/** Live artists by folded name (the most confirmed one of a name). */
export async function artistsByFoldedName(db: Kysely<Database>, folded: string[]): Promise<Map<string, { id: string; name: string | null }>> {
  if (folded.length === 0) return new Map();
  const rows = await db
    .selectFrom('canonical_docs')
    .select(['id', 'name', 'name_folded'])
    .where('kind', '=', 'artist')
    .where('tombstoned', '=', false)
    .where('name_folded', 'in', folded)
    .orderBy('source_count', 'asc')
    .orderBy('id', 'desc')
    .execute();
  return new Map(rows.map((r) => [r.name_folded!, { id: r.id, name: r.name }]));
}

/** Live tracks by folded title and artist ids, playable or not: what a similar track stands for here. */
export async function tracksByFoldedTitle(db: Kysely<Database>, titles: string[], artistIds: string[]) {
  if (titles.length === 0 || artistIds.length === 0) return [];
  return db
    .selectFrom('canonical_docs')
    .select(['id', 'name_folded', 'artist_id', sql<boolean>`(sources->>'mediaserver') = 'true'`.as('playable')])
    .where('kind', '=', 'track')
    .where('tombstoned', '=', false)
    .where('name_folded', 'in', titles)
    .where('artist_id', 'in', artistIds)
    .orderBy('id')
    .execute();
}

export function playableTracksById(db: Kysely<Database>, ids: string[]): Promise<CandidateRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return playableTracks(db).where('t.id', 'in', ids).orderBy('t.id').execute();
}
