import { type Kysely, sql } from 'kysely';

/**
 * The library lists' order (query/mediaserver/library-list.queries.ts), so that streaming a whole
 * section resumes each chunk with an index range scan instead of sorting the section again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index mediaserver_items_track_order on mediaserver_items
    (server_id, section_id, kind, coalesce(parent_rating_key, ''), coalesce(disc, 1), coalesce(item_index, 2147483647), rating_key)
    where kind = 'track'`.execute(db);
  await sql`create index mediaserver_items_title_order on mediaserver_items (server_id, section_id, kind, title_folded, rating_key)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('mediaserver_items_title_order').execute();
  await db.schema.dropIndex('mediaserver_items_track_order').execute();
}
