import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/database.ts';

/** Streamer track ids of canonical tracks with no features asked for yet, oldest link first. */
export async function tracksWithoutFeatures(db: Kysely<Database>, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('external_refs as r')
    .leftJoin('streamer_audio_features as f', 'f.track_id', 'r.external_id')
    .select('r.external_id')
    .where('r.kind', '=', 'track')
    .where('r.source', '=', 'streamer')
    .where('f.track_id', 'is', null)
    .orderBy('r.linked_at')
    .orderBy('r.external_id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.external_id);
}
