import { type Kysely, sql } from 'kysely';

/**
 * The canonical doc fields enrichment adds (alt names, external links, membership and other
 * affiliations of artists, writing credits of tracks). Null means no source reported the field.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('canonical_docs')
    .addColumn('alt_names', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('external_links', 'jsonb')
    .addColumn('members', 'jsonb')
    .addColumn('member_of', 'jsonb')
    .addColumn('affiliations', 'jsonb')
    .addColumn('credits', 'jsonb')
    .execute();
}
