import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import type { UsersTable } from './users.table.ts';
import { usernameKey } from '../../shared/usernames.ts';

/** The user object: never a hash, a credential id or a token. */
export const UserObject = z.object({
  username: z.string(),
  role: z.enum(['viewer', 'staff', 'admin']),
  display_name: z.string().nullable(),
  email: z.string().nullable(),
  preferences: z.object({ mediaserver_favorites_sync_enabled: z.boolean() }),
  scrobbler_username: z.string().nullable(),
  created_at: z.string(),
}).meta({ id: 'User' });

export function toUserObject(row: Selectable<UsersTable>): z.infer<typeof UserObject> {
  return {
    username: row.username,
    role: row.role as 'viewer' | 'staff' | 'admin',
    display_name: row.display_name,
    email: row.email,
    preferences: { mediaserver_favorites_sync_enabled: row.preferences.mediaserver_favorites_sync_enabled === true },
    scrobbler_username: row.scrobbler_username,
    created_at: row.created_at.toISOString(),
  };
}

export async function findUser(db: Kysely<Database>, username: string) {
  const row = await db.selectFrom('users').selectAll().where('username_key', '=', usernameKey(username)).where('deleted', '=', false).executeTakeFirst();
  return row ? toUserObject(row) : undefined;
}

export async function listUsers(db: Kysely<Database>) {
  const rows = await db.selectFrom('users').selectAll().where('deleted', '=', false).orderBy('username_key').execute();
  return rows.map(toUserObject);
}

export async function countUsers(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * When the live account under this name was registered (ISO); undefined when there is none. A
 * deleted name can be registered again: what an earlier account recorded under it is not the new
 * account's to see, change or remove, so the write side filters by this time.
 */
export async function accountSince(db: Kysely<Database>, username: string): Promise<string | undefined> {
  const row = await db.selectFrom('users').select('created_at').where('username_key', '=', usernameKey(username)).where('deleted', '=', false).executeTakeFirst();
  return row?.created_at.toISOString();
}

/** `accountSince`, or '' (earlier than any time) when no live account is projected: everything recorded under the name counts. */
export async function accountSinceOrEarliest(db: Kysely<Database>, username: string): Promise<string> {
  return (await accountSince(db, username)) ?? '';
}

/** The linked scrobbler username from the read model: the cheap check of every listening endpoint. */
export async function linkedScrobblerUsername(db: Kysely<Database>, username: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('scrobbler_username').where('username_key', '=', usernameKey(username)).executeTakeFirst();
  return row?.scrobbler_username ?? null;
}
