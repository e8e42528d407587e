import { type Kysely, sql } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type Tally, feedbackSums, tally } from '../../projectors/radio/radio-feedback.reads.ts';
import { type TrackCard, cardQuery } from '../../projectors/radio/radio-sessions.reads.ts';
import type { PoolEntry } from '../../shared/events/radio.events.ts';
import { usernameKey } from '../../shared/usernames.ts';
import type { PickFacts } from './pick-next.ts';

/** One row of the facts query: a track's or an artist's feedback, a track's last play, the account's start, or a card. */
interface FactRow extends Tally {
  kind: 'track' | 'artist' | 'played' | 'since' | 'card';
  key: string | null;
  /** Unix seconds of the last play, or the account's creation in milliseconds. */
  n: number | null;
  card: TrackCard | null;
}

/** A track's card read with the facts (`card` undefined: no such track). */
export interface CardRead {
  trackId: string;
  card: TrackCard | undefined;
}

export interface CallerFacts {
  facts: PickFacts;
  /** When the caller's account was registered (ISO); undefined when it is gone. */
  since: string | undefined;
  /** The card asked for, when one was. */
  card?: CardRead;
}

/**
 * What a pick weighs beyond the session (the user's other sessions' feedback, when they last
 * played each pool track) and when the caller's account began, in one round trip: an advance
 * reads nothing else before it decides. `cardOf` adds a track's card to the same trip.
 */
export async function callerFacts(db: Kysely<Database>, username: string, sessionId: string, pool: PoolEntry[], now: Date, cardOf?: string): Promise<CallerFacts> {
  const key = usernameKey(username);
  const trackIds = pool.map((e) => e.track_id);
  const played = trackIds.length === 0
    ? sql``
    : sql`union all select 'played', canonical_track_id, 0, 0, 0, max(uts)::float8, null from scrobbles
        where username_key = ${key} and canonical_track_id = any(${trackIds}::text[]) and invalid_kind is null group by canonical_track_id`;
  const cardRow = cardOf === undefined ? sql`` : sql`union all select 'card', ${cardOf}, 0, 0, 0, null, to_jsonb(c) from (${cardQuery(db, cardOf)}) as c`;
  const { rows } = await sql<FactRow>`
    select 'track' as kind, key, ups, downs, skips, null::float8 as n, null::jsonb as card from (${feedbackSums(db, username, sessionId, 'canonical_track_id')}) as t
    union all select 'artist', key, ups, downs, skips, null, null from (${feedbackSums(db, username, sessionId, 'artist_id')}) as a
    ${played}
    union all select 'since', null, 0, 0, 0, floor(extract(epoch from created_at) * 1000)::float8, null from users where username_key = ${key} and not deleted
    ${cardRow}`.execute(db);
  const facts: PickFacts = { feedback: { tracks: new Map(), artists: new Map() }, lastPlayed: new Map(), now };
  let since: string | undefined;
  let card: TrackCard | undefined;
  for (const r of rows) {
    if (r.kind === 'track') facts.feedback.tracks.set(r.key!, tally(r));
    else if (r.kind === 'artist') facts.feedback.artists.set(r.key!, tally(r));
    else if (r.kind === 'played') facts.lastPlayed.set(r.key!, Number(r.n));
    else if (r.kind === 'card') card = r.card!;
    else since = new Date(Number(r.n)).toISOString();
  }
  return { facts, since, ...(cardOf === undefined ? {} : { card: { trackId: cardOf, card } }) };
}
