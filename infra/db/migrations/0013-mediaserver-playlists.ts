import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mediaserver_playlists')
    .addColumn('username_key', 'text', (c) => c.notNull())
    .addColumn('playlist_id', 'text', (c) => c.notNull())
    .addColumn('rating_key', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('playlist_type', 'text', (c) => c.notNull())
    .addColumn('smart', 'boolean', (c) => c.notNull())
    .addColumn('composite', 'text')
    .addColumn('leaf_count', 'integer')
    .addColumn('duration_ms', 'bigint')
    .addColumn('added_at', 'bigint')
    .addColumn('updated_at', 'bigint')
    .addColumn('items_synced_at', 'timestamptz')
    .addColumn('synced_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('mediaserver_playlists_pk', ['username_key', 'playlist_id'])
    .execute();
  await db.schema
    .createTable('mediaserver_playlist_items')
    .addColumn('username_key', 'text', (c) => c.notNull())
    .addColumn('playlist_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('rating_key', 'text', (c) => c.notNull())
    .addColumn('playlist_item_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('parent_title', 'text')
    .addColumn('grandparent_title', 'text')
    .addColumn('duration_ms', 'bigint')
    .addPrimaryKeyConstraint('mediaserver_playlist_items_pk', ['username_key', 'playlist_id', 'position'])
    .execute();
  await db.schema
    .createTable('reactor_checkpoints')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('position', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('reactor_checkpoints').execute();
  await db.schema.dropTable('mediaserver_playlist_items').execute();
  await db.schema.dropTable('mediaserver_playlists').execute();
}
