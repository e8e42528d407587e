import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';

/**
 * link-album-tracks: albums with a ref of the source that still have live tracks without one, and
 * those tracks' positions. The coverage route counts with the same predicates.
 */

const refOf = (entity: RawBuilder<unknown>, source: string) => sql`exists (select 1 from external_refs r where r.entity_id = ${entity} and r.source = ${source})`;
const LIVE_ALBUM = sql`d.kind = 'album' and not d.tombstoned`;
const unlinkedTrack = (source: string) => sql`exists (select 1 from canonical_docs t where t.kind = 'track' and t.album_id = d.id and not t.tombstoned and not ${refOf(sql`t.id`, source)})`;

export interface AlbumToLink {
  id: string;
  external_id: string;
}

export async function albumsWithUnlinkedTracks(db: Kysely<Database>, source: string, afterKey: string | null, limit: number): Promise<AlbumToLink[]> {
  const after = afterKey === null ? sql`true` : sql`d.id collate "C" > ${afterKey}`;
  const rows = await sql<AlbumToLink>`
    select d.id, min(r.external_id) as external_id from canonical_docs d
    join external_refs r on r.entity_id = d.id and r.source = ${source} and r.kind = 'album'
    where ${LIVE_ALBUM} and ${unlinkedTrack(source)} and ${after}
    group by d.id order by d.id collate "C" limit ${limit}`.execute(db);
  return rows.rows;
}

export interface TrackPlace {
  id: string;
  disc: number | null;
  track_number: number | null;
  name: string | null;
  linked: boolean;
}

/** The album's live tracks, with whether each has a ref of the source. */
export async function tracksToPlace(db: Kysely<Database>, albumId: string, source: string): Promise<TrackPlace[]> {
  const rows = await sql<TrackPlace>`
    select t.id, t.disc, t.track_number, t.name, ${refOf(sql`t.id`, source)} as linked from canonical_docs t
    where t.kind = 'track' and t.album_id = ${albumId} and not t.tombstoned order by t.id`.execute(db);
  return rows.rows;
}

const count = async (db: Kysely<Database>, query: RawBuilder<{ n: number }>) => Number((await query.execute(db)).rows[0]?.n ?? 0);

export async function albumTrackCoverage(db: Kysely<Database>, source: string) {
  const withRef = sql`${LIVE_ALBUM} and ${refOf(sql`d.id`, source)}`;
  const onThose = sql`from canonical_docs t join canonical_docs d on d.id = t.album_id where t.kind = 'track' and not t.tombstoned and ${withRef}`;
  const [albums, backlog, tracks, linked] = await Promise.all([
    count(db, sql`select count(*)::int as n from canonical_docs d where ${withRef}`),
    count(db, sql`select count(*)::int as n from canonical_docs d where ${withRef} and ${unlinkedTrack(source)}`),
    count(db, sql`select count(*)::int as n ${onThose}`),
    count(db, sql`select count(*)::int as n ${onThose} and ${refOf(sql`t.id`, source)}`),
  ]);
  return { source, eligible: albums, done: albums - backlog, backlog, tracks, tracks_linked: linked };
}
