import type { Kysely } from 'kysely';

/** The throttles' attempts, shared by every api process of a PostgreSQL deployment (docs/deploy.md). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('auth_attempts')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_attempts_by_key').on('auth_attempts').columns(['scope', 'key', 'at']).execute();
  await db.schema.createIndex('auth_attempts_by_expiry').on('auth_attempts').column('expires_at').execute();
}
