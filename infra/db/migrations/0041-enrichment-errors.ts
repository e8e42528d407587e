import type { Kysely } from 'kysely';

/** One row per (drain, kind, entity) that failed and has not succeeded since. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('enrichment_errors')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('canonical_id', 'text', (c) => c.notNull())
    .addColumn('error', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('first_seen', 'timestamptz', (c) => c.notNull())
    .addColumn('last_seen', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('enrichment_errors_pk', ['source', 'kind', 'canonical_id'])
    .execute();
  await db.schema.createIndex('enrichment_errors_entity').on('enrichment_errors').columns(['canonical_id']).execute();
}
