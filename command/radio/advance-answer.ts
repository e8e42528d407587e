import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type RadioSession, pickOf, sessionOf, trackCard } from '../../projectors/radio/radio-sessions.reads.ts';
import type { RadioSessionEvent } from '../../shared/events/radio.events.ts';
import { usernameKey } from '../../shared/usernames.ts';
import type { CardRead } from './pick-facts.lookups.ts';
import type { RadioSessionState } from './radio-session.decider.ts';

type Picked = Extract<RadioSessionEvent, { type: 'RadioTrackPicked' }>['data'];

/** What an advance decided: the session after it, the track it picked, and that track's card when it was read already. */
export interface Advanced {
  state: RadioSessionState;
  picked: Picked;
  card?: CardRead;
}

/**
 * An advance's answer from what it decided, as the read model would show it: the session is
 * active and its new current track has no outcome or thumb yet. Only the track's card is read,
 * unless the advance read it with its facts.
 */
export async function advanceAnswer(db: Kysely<Database>, { state, picked, card: read }: Advanced): Promise<RadioSession> {
  const card = read ? read.card : await trackCard(db, picked.canonical_track_id);
  const at = new Date(picked.at);
  const current = pickOf({
    position: picked.position, canonical_track_id: picked.canonical_track_id, artist_id: picked.artist_id, score: picked.score, reason: picked.reason,
    outcome: null, feedback: null, picked_at: at,
    title: card?.title ?? null, artist_name: card?.artist_name ?? null, album_id: card?.album_id ?? null, album_title: card?.album_title ?? null,
    duration_ms: card?.duration_ms ?? null, cover_url: card?.cover_url ?? null,
  });
  const row = {
    session_id: picked.session_id, username_key: usernameKey(picked.username), username: picked.username, seed_kind: state.seedKind, seed_id: state.seedId,
    seed_label: state.seedLabel, pool_size: state.poolSize, pool_count: state.pool.length, track_count: state.picks.length,
    started_at: new Date(state.startedAt!), updated_at: at, ended_at: null,
  };
  return sessionOf(row, current);
}
