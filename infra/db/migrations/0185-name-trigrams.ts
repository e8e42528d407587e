import { type Kysely, sql } from 'kysely';

/**
 * A name substring (`q` of the library lists, the canonical searches) matched by walking a sort's
 * index reads every row until a page is full: the whole kind when the string is rare. A trigram
 * index on the folded name finds the matches directly (strings of three characters or more). The
 * embedded database loads pg_trgm where it is opened (infra/db/pglite-worker.mjs, create-db.ts);
 * PostgreSQL ships it as a trusted contrib extension.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index canonical_docs_live_name_trgm on canonical_docs using gin (name_folded gin_trgm_ops) where not tombstoned`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists canonical_docs_live_name_trgm`.execute(db);
}
