import type { Kysely } from 'kysely';

/**
 * Raw metabase and cover-art payloads, by what was asked (an entity kind and id, a search, a
 * browse, a barcode): caches, not events. `found` is false for a cached miss (a barcode lookup).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('metabase_cache')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('found', 'boolean', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('fetched_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('metabase_cache_pk', ['kind', 'key'])
    .execute();
}
