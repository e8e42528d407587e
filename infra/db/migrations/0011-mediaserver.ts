import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mediaserver_links')
    .addColumn('username_key', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('credential_id', 'text')
    .addColumn('account_id', 'integer')
    .addColumn('account_uuid', 'text')
    .addColumn('account_username', 'text')
    .addColumn('account_title', 'text')
    .addColumn('account_thumb', 'text')
    .addColumn('linked_at', 'timestamptz')
    .addColumn('pending_expires_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
}
