import { type Kysely, sql } from 'kysely';

/**
 * The id a note was written under, beside the one it follows merges with: an unmerge sends the
 * note back to it. Rows from before take their current id; the comments projector's version bump
 * rebuilds them from the log with the recorded one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('comments').addColumn('recorded_id', 'text').execute();
  await sql`update comments set recorded_id = canonical_id`.execute(db);
  await db.schema.createIndex('comments_recorded').on('comments').columns(['kind', 'recorded_id']).execute();
}
