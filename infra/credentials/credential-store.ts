import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { log } from '../logger.ts';
import { newId } from '../../shared/ids.ts';
import { createCipher } from './cipher.ts';

/** Rows written now are sealed with their credential id as associated data. */
export const SEAL_VERSION = 2;

/**
 * Secrets (password hashes, upstream tokens, session keys) live here, encrypted, and never in the
 * event log: events refer to a credential by its id. Rows are written before the event that refers
 * to them, so a failed append leaves an unreferenced row, never a missing one.
 */
export function createCredentialStore(db: Kysely<Database>, secretKey: string) {
  const cipher = createCipher(secretKey);
  return {
    async put(owner: string, kind: string, secret: string): Promise<string> {
      const credential_id = newId();
      const sealed = cipher.encrypt(secret, credential_id);
      await db.insertInto('credentials').values({ credential_id, owner, kind, secret: sealed, seal_version: SEAL_VERSION, created_at: new Date() }).execute();
      return credential_id;
    },
    /**
     * The secret, or undefined when there is none or it cannot be opened: SECRET_KEY changed, the
     * row was damaged, or it was copied from another credential id. Callers treat that as "no
     * credential" (a failed login, a link to make again); the reason is logged, never the secret.
     */
    async get(credentialId: string): Promise<string | undefined> {
      const row = await db.selectFrom('credentials').select(['secret', 'seal_version', 'owner', 'kind']).where('credential_id', '=', credentialId).executeTakeFirst();
      if (!row) return undefined;
      try {
        if (row.seal_version !== SEAL_VERSION) throw new Error(`seal version ${row.seal_version} was not re-sealed at start`);
        return cipher.decrypt(row.secret, credentialId);
      } catch (error) {
        log.warn('credentials: a stored credential cannot be opened (SECRET_KEY changed, or the row was altered or moved); its owner must sign in or link again', {
          credential_id: credentialId,
          owner: row.owner,
          kind: row.kind,
          error: error instanceof Error ? error.message : String(error),
        });
        return undefined;
      }
    },
    /** Rewrites a credential in place (a rotated upstream token): its id, and the events naming it, stay valid. */
    async replace(credentialId: string, secret: string): Promise<void> {
      await db.updateTable('credentials').set({ secret: cipher.encrypt(secret, credentialId), seal_version: SEAL_VERSION }).where('credential_id', '=', credentialId).execute();
    },
    /** Drops one credential (a row whose event was refused, so nothing refers to it). */
    async remove(credentialId: string): Promise<void> {
      await db.deleteFrom('credentials').where('credential_id', '=', credentialId).execute();
    },
  };
}

export type CredentialStore = ReturnType<typeof createCredentialStore>;
