import { type Kysely, sql } from 'kysely';

/**
 * The tracks that carry genres of their own, by genre: a library page of a genre few tracks carry
 * starts from its albums and from these (query/library/library.queries.ts). Only tracks with some:
 * a scrobbled track has none and costs this index nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index canonical_docs_track_genres on canonical_docs using gin (genres jsonb_path_ops) where kind = 'track' and genres <> '[]'::jsonb`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists canonical_docs_track_genres`.execute(db);
}
