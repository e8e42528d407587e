import type { Kysely } from 'kysely';

/** Read-through cache of catalog payloads: raw upstream data stays out of the event log. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('catalog_cache')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('catalog_id', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('fetched_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('catalog_cache_pk', ['kind', 'catalog_id'])
    .execute();
}
