import type { Kysely } from 'kysely';

/** Tracks' audio features from the features database (null until looked up, and when it has none). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('canonical_docs').addColumn('feature_data', 'jsonb').execute();
}
