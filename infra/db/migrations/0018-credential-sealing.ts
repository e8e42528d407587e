import type { Kysely } from 'kysely';

/**
 * How each credential is sealed: 1, AES-GCM without associated data (rows written before this
 * migration); 2, with the credential id as associated data. A migration cannot read SECRET_KEY, so
 * the service re-seals version 1 rows when it starts (infra/credentials/reseal.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('credentials').addColumn('seal_version', 'smallint', (c) => c.notNull().defaultTo(1)).execute();
}
