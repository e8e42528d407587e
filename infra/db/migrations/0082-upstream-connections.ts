import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('upstream_connections')
    .addColumn('username_key', 'text', (c) => c.notNull())
    .addColumn('upstream', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('linked_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_sync_at', 'timestamptz')
    .addPrimaryKeyConstraint('upstream_connections_pk', ['username_key', 'upstream'])
    .execute();
}
