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
      return row ? cipher.decrypt(row.secret) : undefined;
    },
    /** Drops one credential (a row whose event was refused, so nothing refers to it). */
    async remove(credentialId: string): Promise<void> {
      await db.deleteFrom('credentials').where('credential_id', '=', credentialId).execute();
    },
    /** Drops an owner's credentials of one kind except the one in use. */
    async prune(owner: string, kind: string, keep: string | null): Promise<void> {
      let q = db.deleteFrom('credentials').where('owner', '=', owner).where('kind', '=', kind);
      if (keep) q = q.where('credential_id', '!=', keep);
      await q.execute();
    },
  };
}

export type CredentialStore = ReturnType<typeof createCredentialStore>;
