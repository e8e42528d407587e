import { type Kysely, sql } from 'kysely';

/**
 * The canonical ids each scrobble was stamped with, beside the ones merges and the migrate step
 * move: an unmerge sends back the scrobbles recorded under the source. Mirrored rows from before
 * take their current stamps (a merge they were re-stamped for stays with its target); the dashboard
 * projector's version bump rebuilds its rows from the log with the recorded ones.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['scrobbles', 'dashboard_scrobbles']) {
    await db.schema
      .alterTable(table)
      .addColumn('recorded_artist_id', 'text')
      .addColumn('recorded_album_id', 'text')
      .addColumn('recorded_track_id', 'text')
      .execute();
  }
  await sql`update scrobbles set recorded_artist_id = canonical_artist_id, recorded_album_id = canonical_album_id, recorded_track_id = canonical_track_id`.execute(db);
}
