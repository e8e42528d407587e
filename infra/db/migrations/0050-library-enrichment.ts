import { type Kysely, sql } from 'kysely';

/**
 * Doc fields of the no-network drains: unified moods and styles (tags exist already), and what an
 * artist's albums and tracks add up to. Null discography: the artist was never reprojected.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('canonical_docs')
    .addColumn('moods', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('styles', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('discography', 'jsonb')
    .execute();
}
