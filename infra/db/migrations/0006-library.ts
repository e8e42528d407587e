import { type Kysely, sql } from 'kysely';

/**
 * Indexes for the library browser and canonical maintenance. Each list index is partial on live
 * entities and ends in the sort's tie-breaker, so a page is an index range scan, not a sort.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const statements = [
    `create index canonical_docs_live_recent on canonical_docs (kind, created_at desc, id desc) where not tombstoned`,
    `create index canonical_docs_live_name on canonical_docs (kind, name_folded, id) where not tombstoned`,
    `create index canonical_docs_live_sources on canonical_docs (kind, source_count desc, name_folded, id) where not tombstoned`,
    `create index canonical_docs_playable_recent on canonical_docs (kind, created_at desc, id desc)
       where not tombstoned and (sources->>'mediaserver') = 'true'`,
    `create index canonical_docs_album_genres on canonical_docs using gin (genres jsonb_path_ops) where kind = 'album' and not tombstoned`,
    `create index canonical_docs_merged_into on canonical_docs (merged_into) where merged_into is not null`,
    `create index external_refs_source on external_refs (source)`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
