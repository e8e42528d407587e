import type { Kysely } from 'kysely';

/**
 * Each canonical doc's library row as JSON text (projectors/canonical/canonical-docs.json.ts), so a
 * list page joins stored texts instead of rendering 40 columns per row per request. Filled by the
 * canonical_docs projector, whose version 3 rebuilds the docs with it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('canonical_docs').addColumn('list_json', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('canonical_docs').dropColumn('list_json').execute();
}
