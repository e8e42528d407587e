import type { Kysely } from 'kysely';

/** Nonces of consumed OAuth / web-auth callback states: a state is usable once, across processes. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('callback_states_used')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('username_key', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('callback_states_used').execute();
}
