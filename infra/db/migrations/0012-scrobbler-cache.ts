import type { Kysely } from 'kysely';

/** Read-through cache of live scrobbler answers: raw upstream payloads stay out of the event log. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('scrobbler_cache')
    .addColumn('cache_key', 'text', (c) => c.primaryKey())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('fetched_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('scrobbler_cache_scope').on('scrobbler_cache').column('scope').execute();
}
