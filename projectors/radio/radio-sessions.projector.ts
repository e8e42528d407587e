import type { QueryCreator, Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { Projector, StoredEvent } from '../../infra/projections/projector.ts';
import type { RadioSessionEvent } from '../../shared/events/radio.events.ts';
import type { UserEvent } from '../../shared/events/users.events.ts';
import { assertNever } from '../../shared/never.ts';
import { usernameKey } from '../../shared/usernames.ts';

type Handled = Exclude<RadioSessionEvent, { type: 'RadioDiscoveriesWanted' }> | Extract<UserEvent, { type: 'UserDeleted' }>;
type Picked = StoredEvent & Extract<RadioSessionEvent, { type: 'RadioTrackPicked' }>;
type OutcomeLogged = StoredEvent & Extract<RadioSessionEvent, { type: 'RadioOutcomeLogged' }>;

/** radio_sessions and radio_picks: each user's sessions and what they played. */
export const radioSessionsProjector: Projector = {
  name: 'radio_sessions',
  version: 1,
  handles: ['RadioSessionStarted', 'RadioTrackPicked', 'RadioOutcomeLogged', 'RadioFeedbackGiven', 'RadioSessionEnded', 'RadioSessionResumed', 'UserDeleted'],
  tables: ['radio_picks', 'radio_sessions'],
  apply,
};

/**
 * One event at a time, except that an advance (the outcome of the current track, then the next
 * pick) is written in one statement: it is what every advance waits for.
 */
async function apply(trx: Transaction<Database>, events: StoredEvent[]): Promise<void> {
  const handled = events as (StoredEvent & Handled)[];
  for (let i = 0; i < handled.length; i++) {
    const event = handled[i]!;
    const next = handled[i + 1];
    if (event.type === 'RadioOutcomeLogged' && next?.type === 'RadioTrackPicked' && advances(event, next)) {
      await pick(trx, next, event);
      i++;
    } else await applyOne(trx, event);
  }
}

/** The outcome of a session's current track followed by the session's next pick. */
const advances = (outcome: OutcomeLogged, picked: Picked) => outcome.data.session_id === picked.data.session_id && outcome.data.position === picked.data.position - 1;

/** A pick: its row, the session's count (and the outcome of the track before it, when given). */
async function pick(trx: Transaction<Database>, event: Picked, outcome?: OutcomeLogged): Promise<void> {
  const { session_id, position, canonical_track_id, artist_id, score, reason, at } = event.data;
  // A CTE's creator also knows the CTEs before it; these statements only need the tables.
  const row = (db: QueryCreator<any>) =>
    (db as QueryCreator<Database>)
      .insertInto('radio_picks')
      .values({ session_id, position, canonical_track_id, artist_id, score, reason, outcome: null, feedback: null, picked_at: new Date(at) })
      .onConflict((oc) => oc.columns(['session_id', 'position']).doNothing());
  const counted = { track_count: position, updated_at: new Date(at) };
  if (!outcome) return void (await trx.with('pick', row).updateTable('radio_sessions').set(counted).where('session_id', '=', session_id).execute());
  const before = (db: QueryCreator<Database>) =>
    db.updateTable('radio_picks').set({ outcome: outcome.data.outcome }).where('session_id', '=', session_id).where('position', '=', outcome.data.position);
  await trx.with('outcome', before).with('pick', row).updateTable('radio_sessions').set(counted).where('session_id', '=', session_id).execute();
}

async function applyOne(trx: Transaction<Database>, event: StoredEvent & Handled): Promise<void> {
  switch (event.type) {
    case 'UserDeleted': {
      const theirs = trx.selectFrom('radio_sessions').select('session_id').where('username_key', '=', usernameKey(event.data.username));
      await trx.deleteFrom('radio_picks').where('session_id', 'in', theirs).execute();
      await trx.deleteFrom('radio_sessions').where('username_key', '=', usernameKey(event.data.username)).execute();
      return;
    }
    case 'RadioSessionStarted': {
      const { session_id, username, seed_kind, seed_id, seed_label, pool_size, pool, at } = event.data;
      const when = new Date(at);
      await trx
        .insertInto('radio_sessions')
        .values({ session_id, username_key: usernameKey(username), username, seed_kind, seed_id, seed_label, pool_size, pool_count: pool.length, track_count: 0, started_at: when, updated_at: when, ended_at: null })
        .onConflict((oc) => oc.column('session_id').doNothing())
        .execute();
      return;
    }
    case 'RadioTrackPicked':
      return pick(trx, event);
    case 'RadioOutcomeLogged':
      await trx.updateTable('radio_picks').set({ outcome: event.data.outcome }).where('session_id', '=', event.data.session_id).where('position', '=', event.data.position).execute();
      return;
    case 'RadioFeedbackGiven': {
      const { session_id, canonical_track_id, signal } = event.data;
      await trx.updateTable('radio_picks').set({ feedback: signal }).where('session_id', '=', session_id).where('canonical_track_id', '=', canonical_track_id).execute();
      return;
    }
    case 'RadioSessionEnded':
      await trx.updateTable('radio_sessions').set({ ended_at: new Date(event.data.at), updated_at: new Date(event.data.at) }).where('session_id', '=', event.data.session_id).execute();
      return;
    case 'RadioSessionResumed':
      await trx.updateTable('radio_sessions').set({ ended_at: null, updated_at: new Date(event.data.at) }).where('session_id', '=', event.data.session_id).execute();
      return;
    default:
      assertNever(event);
  }
}
