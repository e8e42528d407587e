import { type Kysely, sql } from 'kysely';

/**
 * Statistics on whether the mediaserver holds a doc, the library's `playable` filter. Without them
 * the planner takes `(sources->>'mediaserver') = 'true'` for 0.5% of the rows (its default for an
 * expression), so on PostgreSQL a page of playable tracks read every playable one through a bitmap
 * and sorted them (8 ms at 5,000) rather than walk the sort's index for 51 rows (1 ms).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create statistics canonical_docs_mediaserver on ((sources->>'mediaserver')) from canonical_docs`.execute(db);
  await sql`analyze canonical_docs`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop statistics if exists canonical_docs_mediaserver`.execute(db);
}
