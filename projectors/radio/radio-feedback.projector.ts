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
      return count(trx, event.data, event.data.signal === 'up' ? 'ups' : 'downs');
    case 'RadioOutcomeLogged':
      if (event.data.outcome === 'disliked') return count(trx, event.data, 'downs');
      if (event.data.outcome === 'skipped') return count(trx, event.data, 'skips');
      return;
    default:
      assertNever(event);
  }
}

async function count(
  trx: Transaction<Database>,
  fact: { username: string; session_id: string; canonical_track_id: string; artist_id: string | null; at: string },
  field: 'ups' | 'downs' | 'skips',
): Promise<void> {
  const row = { username_key: usernameKey(fact.username), session_id: fact.session_id, canonical_track_id: fact.canonical_track_id, artist_id: fact.artist_id, updated_at: new Date(fact.at) };
  await trx
    .insertInto('radio_feedback')
    .values({ ...row, ups: 0, downs: 0, skips: 0, [field]: 1 })
    .onConflict((oc) => oc.columns(['username_key', 'session_id', 'canonical_track_id']).doUpdateSet((eb) => ({ [field]: eb(`radio_feedback.${field}`, '+', 1), updated_at: row.updated_at })))
    .execute();
}
