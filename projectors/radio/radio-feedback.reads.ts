import { type Kysely, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { usernameKey } from '../../shared/usernames.ts';

export interface Tally {
  ups: number;
  downs: number;
  skips: number;
}

/** The user's radio feedback from every session but `exceptSession`, summed by track and by artist. */
export async function feedbackElsewhere(db: Kysely<Database>, username: string, exceptSession: string) {
  const sums = [
    sql<number>`count(*) filter (where signal = 'up')`.as('ups'),
    sql<number>`count(*) filter (where signal = 'down')`.as('downs'),
    sql<number>`count(*) filter (where signal = 'skip')`.as('skips'),
  ] as const;
  const mine = db.selectFrom('radio_feedback').where('username_key', '=', usernameKey(username)).where('session_id', '<>', exceptSession);
  const [tracks, artists] = await Promise.all([
    mine.select(['canonical_track_id', ...sums]).groupBy('canonical_track_id').execute(),
    mine.select(['artist_id', ...sums]).where('artist_id', 'is not', null).groupBy('artist_id').execute(),
  ]);
  const tally = (r: Tally): Tally => ({ ups: Number(r.ups), downs: Number(r.downs), skips: Number(r.skips) });
  return {
    tracks: new Map(tracks.map((r) => [r.canonical_track_id, tally(r)])),
    artists: new Map(artists.map((r) => [r.artist_id!, tally(r)])),
  };
}
