import { type Kysely, sql } from 'kysely';

/** The releasedb's cached search rows (not events), and the albums' labels it gives. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('releasedb_cache')
    .addColumn('release_id', 'text', (c) => c.primaryKey())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('fetched_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('canonical_docs').addColumn('labels', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`)).execute();
}
