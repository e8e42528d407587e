import type { Kysely } from 'kysely';

/**
 * A merge hides the merged-away entity's error rows instead of dropping them, so that an unmerge
 * shows them again. Rows dropped before come back (hidden) when the enrichment errors projector's
 * version bump rebuilds the table from the log.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('enrichment_errors').addColumn('merged_away', 'boolean', (c) => c.notNull().defaultTo(false)).execute();
}
