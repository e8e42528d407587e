import { type Kysely, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { usernameKey } from '../../shared/usernames.ts';

export interface Tally {
  ups: number;
  downs: number;
  skips: number;
}

/**
 * The user's radio feedback from every session but `exceptSession`, summed by track or by artist:
 * `key`, `ups`, `downs`, `skips`. A query to run or to read in a larger one.
 */
export function feedbackSums(db: Kysely<Database>, username: string, exceptSession: string, by: 'canonical_track_id' | 'artist_id') {
  return db
    .selectFrom('radio_feedback')
    .select([
      sql<string>`${sql.ref(by)}`.as('key'),
      sql<number>`count(*) filter (where signal = 'up')`.as('ups'),
      sql<number>`count(*) filter (where signal = 'down')`.as('downs'),
      sql<number>`count(*) filter (where signal = 'skip')`.as('skips'),
    ])
    .where('username_key', '=', usernameKey(username))
    .where('session_id', '<>', exceptSession)
    .where(by, 'is not', null)
    .groupBy(by);
}

export const tally = (r: Tally): Tally => ({ ups: Number(r.ups), downs: Number(r.downs), skips: Number(r.skips) });

/** The user's radio feedback from every session but `exceptSession`, summed by track and by artist. */
export async function feedbackElsewhere(db: Kysely<Database>, username: string, exceptSession: string) {
  const [tracks, artists] = await Promise.all([feedbackSums(db, username, exceptSession, 'canonical_track_id').execute(), feedbackSums(db, username, exceptSession, 'artist_id').execute()]);
  return {
    tracks: new Map(tracks.map((r) => [r.key, tally(r)])),
    artists: new Map(artists.map((r) => [r.key, tally(r)])),
  };
}
