import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { usernameKey } from '../../shared/usernames.ts';
import type { MediaserverLinksTable } from './links.table.ts';

/** The user's media server link as the read model holds it (mid-PIN or linked). */
export async function linkRow(db: Kysely<Database>, username: string): Promise<MediaserverLinksTable | undefined> {
  return db.selectFrom('mediaserver_links').selectAll().where('username_key', '=', usernameKey(username)).executeTakeFirst();
}
