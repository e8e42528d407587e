import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { newId } from '../../shared/ids.ts';
import { createCipher } from './cipher.ts';

export interface CredentialsTable {
  credential_id: string;
  owner: string;
  kind: string;
  secret: string;
  created_at: Date;
}

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
      await db.insertInto('credentials').values({ credential_id, owner, kind, secret: cipher.encrypt(secret), created_at: new Date() }).execute();
      return credential_id;
    },
    async get(credentialId: string): Promise<string | undefined> {
      const row = await db.selectFrom('credentials').select('secret').where('credential_id', '=', credentialId).executeTakeFirst();
      if (!row) return undefined;
      try {
        return cipher.decrypt(row.secret);
      } catch {
        throw new CredentialUnreadable();
      }
    },
    /** Drops one credential (a row whose event was refused, so nothing refers to it). */
    async remove(credentialId: string): Promise<void> {
      await db.deleteFrom('credentials').where('credential_id', '=', credentialId).execute();
    },
  };
}

/** A stored secret that the current SECRET_KEY cannot open: the key changed since it was written. */
export class CredentialUnreadable extends Error {
  constructor() {
    super('a stored credential cannot be decrypted: SECRET_KEY differs from the one it was stored with');
  }
}

export type CredentialStore = ReturnType<typeof createCredentialStore>;
