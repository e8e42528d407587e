import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.ts';
import { lockKey } from '../db/advisory-locks.ts';
import { type AttemptLog, refusal } from './attempt-log.ts';

/**
 * The attempt log of every process on one PostgreSQL database (docs/deploy.md): a guesser spreading
 * attempts over several api processes is counted once. Checking and counting hold transaction-level
 * advisory locks on the keys, so simultaneous attempts through different processes cannot all slip
 * past the count. Expired attempts are deleted as new ones are counted.
 */
export function sharedAttemptLog(db: Kysely<Database>, scope: string) {
  return (windowMs: number, now: () => number): AttemptLog => ({
    admit: (limits, message) =>
      db.transaction().execute(async (trx) => {
        const at = now();
        const keys = [...new Set(limits.map((l) => lockKey(`throttle:${scope}:${l.key}`)))].sort();
        await sql`select pg_advisory_xact_lock(k::bigint) from unnest(${keys}::text[]) as k`.execute(trx);
        await trx.deleteFrom('auth_attempts').where('expires_at', '<=', at).execute();
        for (const { key, max } of limits) {
          const counted = await trx
            .selectFrom('auth_attempts')
            .select([sql<number>`count(*)`.as('n'), sql<number | null>`min(at)`.as('oldest')])
            .where('scope', '=', scope)
            .where('key', '=', key)
            .executeTakeFirstOrThrow();
          if (Number(counted.n) >= max) throw refusal(message, Number(counted.oldest), windowMs, at);
        }
        await trx
          .insertInto('auth_attempts')
          .values(limits.map(({ key }) => ({ scope, key, at, expires_at: at + windowMs })))
          .execute();
        return at;
      }),
    async forget(key) {
      await db.deleteFrom('auth_attempts').where('scope', '=', scope).where('key', '=', key).execute();
    },
    async forgetOne(key, at) {
      await sql`delete from auth_attempts where ctid = (
        select ctid from auth_attempts where scope = ${scope} and key = ${key} and at = ${at} limit 1)`.execute(db);
    },
  });
}
