import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import type { UsersTable } from '../../projectors/auth/users.table.ts';
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
});

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
