import { sql, type Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type Projector, type StoredEvent, oneByOne } from '../../infra/projections/projector.ts';
import type { UserEvent } from '../../shared/events/users.events.ts';
import { SESSION_ENDING_EVENTS } from '../../shared/events/users.events.ts';
import { assertNever } from '../../shared/never.ts';
import { usernameKey } from '../../shared/usernames.ts';

/** users: one row per account (deleted ones kept, flagged), as the session check and admin lists need it. */
export const usersProjector: Projector = {
  name: 'users',
  version: 2,
  handles: ['UserRegistered', 'UserProfileChanged', 'UserPasswordChanged', 'UserRoleChanged', 'UserSessionsEnded', 'UserDeleted', 'ScrobblerLinked', 'ScrobblerUnlinked'],
  tables: ['users'],
  apply: oneByOne<UserEvent>(applyOne),
};

async function applyOne(trx: Transaction<Database>, event: StoredEvent & UserEvent): Promise<void> {
  const key = usernameKey(event.data.username);
  const at = new Date(event.data.at);
  const endsSessions = (SESSION_ENDING_EVENTS as readonly string[]).includes(event.type);
  const row = trx
    .updateTable('users')
    .where('username_key', '=', key)
    .set({ updated_at: at, ...(endsSessions ? { session_version: sql`session_version + 1` } : {}) });
  switch (event.type) {
    case 'UserRegistered': {
      const fresh = {
        username: event.data.username,
        role: event.data.role,
        display_name: null,
        email: null,
        preferences: JSON.stringify({ mediaserver_favorites_sync_enabled: false }),
        scrobbler_username: null,
        credential_id: event.data.credential_id,
        deleted: false,
        created_at: at,
        updated_at: at,
      };
      await trx
        .insertInto('users')
        .values({ username_key: key, session_version: 0, ...fresh })
        // A deleted name registered again: a new account, with sessions of the old one still void.
        .onConflict((oc) => oc.column('username_key').doUpdateSet({ ...fresh, session_version: sql`users.session_version + 1` }))
        .execute();
      return;
    }
    case 'UserProfileChanged': {
      const { display_name, email, preferences } = event.data;
      await row
        .set({
          ...(display_name !== undefined ? { display_name } : {}),
          ...(email !== undefined ? { email } : {}),
          ...(preferences !== undefined ? { preferences: sql`preferences || ${JSON.stringify(preferences)}::jsonb` } : {}),
        })
        .execute();
      return;
    }
    case 'UserPasswordChanged':
      await row.set({ credential_id: event.data.credential_id }).execute();
      return;
    case 'UserRoleChanged':
      await row.set({ role: event.data.role }).execute();
      return;
    case 'UserSessionsEnded':
      await row.execute();
      return;
    case 'UserDeleted':
      await row.set({ deleted: true, credential_id: null, scrobbler_username: null }).execute();
      return;
    case 'ScrobblerLinked':
      await row.set({ scrobbler_username: event.data.scrobbler_username }).execute();
      return;
    case 'ScrobblerUnlinked':
      await row.set({ scrobbler_username: null }).execute();
      return;
    default:
      assertNever(event);
  }
}
