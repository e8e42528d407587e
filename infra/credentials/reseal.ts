import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { log } from '../logger.ts';
import { createCipher } from './cipher.ts';
import { SEAL_VERSION } from './credential-store.ts';

/**
 * Re-seals credentials written before migration 0018 (no associated data) with their id bound in,
 * at start, before anything reads them. Each row moves only from version 1 (compare-and-set), so
 * processes starting together do not fight. A row the key cannot open stays as it is and is
 * reported: reading it answers "no credential" until its owner signs in or links again.
 */
export async function resealLegacyCredentials(db: Kysely<Database>, secretKey: string): Promise<{ resealed: number; unreadable: number }> {
  const cipher = createCipher(secretKey);
  const legacy = await db.selectFrom('credentials').select(['credential_id', 'secret']).where('seal_version', '<', SEAL_VERSION).execute();
  let resealed = 0;
  const unreadable: string[] = [];
  for (const row of legacy) {
    let plain: string;
    try {
      plain = cipher.decrypt(row.secret);
    } catch {
      unreadable.push(row.credential_id);
      continue;
    }
    const result = await db
      .updateTable('credentials')
      .set({ secret: cipher.encrypt(plain, row.credential_id), seal_version: SEAL_VERSION })
      .where('credential_id', '=', row.credential_id)
      .where('seal_version', '<', SEAL_VERSION)
      .executeTakeFirst();
    resealed += Number(result.numUpdatedRows);
  }
  if (resealed > 0) log.info('credentials: re-sealed with their ids bound in', { resealed });
  if (unreadable.length > 0) log.warn('credentials: stored credentials that SECRET_KEY cannot open were left as they are', { credential_ids: unreadable });
  return { resealed, unreadable: unreadable.length };
}
