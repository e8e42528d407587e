import { type Kysely, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { feedbackElsewhere } from '../../projectors/radio/radio-feedback.reads.ts';
import type { PoolEntry } from '../../shared/events/radio.events.ts';
import { usernameKey } from '../../shared/usernames.ts';
import type { PickFacts } from './pick-next.ts';

/** When the user last played each of `trackIds`, from their scrobble mirror (unix seconds). */
async function lastPlayed(db: Kysely<Database>, username: string, trackIds: string[]): Promise<Map<string, number>> {
  if (trackIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('scrobbles')
    .select(['canonical_track_id', sql<string>`max(uts)`.as('uts')])
    .where('username_key', '=', usernameKey(username))
    .where('canonical_track_id', 'in', trackIds)
    .where('invalid_kind', 'is', null)
    .groupBy('canonical_track_id')
    .execute();
  return new Map(rows.map((r) => [r.canonical_track_id!, Number(r.uts)]));
}

/** What a pick weighs beyond the session: the user's other sessions' feedback and their listening. */
export async function pickFacts(db: Kysely<Database>, username: string, sessionId: string, pool: PoolEntry[], now: Date): Promise<PickFacts> {
  const [feedback, played] = await Promise.all([feedbackElsewhere(db, username, sessionId), lastPlayed(db, username, pool.map((e) => e.track_id))]);
  return { feedback, lastPlayed: played, now };
}
