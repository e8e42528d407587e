import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { usernameKey } from '../../shared/usernames.ts';

/** The account the user is linked to now, or undefined: every mirror read is scoped to it. */
export async function linkedAccount(db: Kysely<Database>, username: string) {
  return db
    .selectFrom('streamer_links')
    .select(['username_key', 'account_id', 'display_name', 'linked_at', 'state', 'state_reason'])
    .where('username_key', '=', usernameKey(username))
    .where('account_id', 'is not', null)
    .executeTakeFirst() as Promise<{ username_key: string; account_id: string; display_name: string | null; linked_at: Date; state: string; state_reason: string | null } | undefined>;
}
