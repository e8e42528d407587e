import { type Kysely, sql } from 'kysely';

/**
 * The library lists at scale (docs/reads.md). `canonical_docs_revision` counts the canonical_docs
 * projector's batches (its first batch writes the row), so a list's total can be counted once per
 * change of the docs rather than per request. The playable filter, what the client shows most, gets an index in the order of each
 * of its sorts (0006 has the newest-first one); the other filters walk the sort's index. A track's
 * genre filter finds its album's genre through an index of every album's genres.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('canonical_docs_revision')
    .addColumn('singleton', 'boolean', (c) => c.primaryKey().defaultTo(true).check(sql`singleton`))
    .addColumn('revision', 'bigint', (c) => c.notNull())
    .execute();
  const statements = [
    `create index canonical_docs_playable_name on canonical_docs (kind, name_folded, id)
       where not tombstoned and (sources->>'mediaserver') = 'true'`,
    `create index canonical_docs_playable_sources on canonical_docs (kind, source_count desc, name_folded, id)
       where not tombstoned and (sources->>'mediaserver') = 'true'`,
    // A track's genre is its album's, merged-away or not: 0006's genre index holds live albums only.
    `create index canonical_docs_any_album_genres on canonical_docs using gin (genres jsonb_path_ops) where kind = 'album'`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('canonical_docs_any_album_genres').execute();
  await db.schema.dropIndex('canonical_docs_playable_sources').execute();
  await db.schema.dropIndex('canonical_docs_playable_name').execute();
  await db.schema.dropTable('canonical_docs_revision').execute();
}
