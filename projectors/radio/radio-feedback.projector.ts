import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type Projector, type StoredEvent, oneByOne } from '../../infra/projections/projector.ts';
import type { RadioSessionEvent } from '../../shared/events/radio.events.ts';
import type { UserEvent } from '../../shared/events/users.events.ts';
import { assertNever } from '../../shared/never.ts';
import { usernameKey } from '../../shared/usernames.ts';

type Handled = Extract<RadioSessionEvent, { type: 'RadioFeedbackGiven' | 'RadioOutcomeLogged' }> | Extract<UserEvent, { type: 'UserDeleted' }>;

/**
 * radio_feedback: thumbs, and the negative outcomes (`disliked` counts as a thumb down, `skipped`
 * as a skip). `played` and `liked` outcomes stay on their session.
 */
export const radioFeedbackProjector: Projector = {
  name: 'radio_feedback',
  version: 1,
  handles: ['RadioFeedbackGiven', 'RadioOutcomeLogged', 'UserDeleted'],
  tables: ['radio_feedback'],
  apply: oneByOne<Handled>(applyOne),
};

async function applyOne(trx: Transaction<Database>, event: StoredEvent & Handled): Promise<void> {
  switch (event.type) {
    case 'UserDeleted':
      await trx.deleteFrom('radio_feedback').where('username_key', '=', usernameKey(event.data.username)).execute();
      return;
    case 'RadioFeedbackGiven':
      return record(trx, event.id, event.data, event.data.signal);
    case 'RadioOutcomeLogged':
      if (event.data.outcome === 'disliked') return record(trx, event.id, event.data, 'down');
      if (event.data.outcome === 'skipped') return record(trx, event.id, event.data, 'skip');
      return;
    default:
      assertNever(event);
  }
}

async function record(
  trx: Transaction<Database>,
  eventId: string,
  fact: { username: string; session_id: string; canonical_track_id: string; artist_id: string | null; at: string },
  signal: 'up' | 'down' | 'skip',
): Promise<void> {
  await trx
    .insertInto('radio_feedback')
    .values({ event_id: eventId, username_key: usernameKey(fact.username), session_id: fact.session_id, canonical_track_id: fact.canonical_track_id, artist_id: fact.artist_id, signal, given_at: new Date(fact.at) })
    .onConflict((oc) => oc.column('event_id').doNothing())
    .execute();
}
