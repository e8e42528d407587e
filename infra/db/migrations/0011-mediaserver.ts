import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mediaserver_links')
    .addColumn('username_key', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('credential_id', 'text')
    .addColumn('account_id', 'integer')
    .addColumn('account_uuid', 'text')
    .addColumn('account_username', 'text')
    .addColumn('account_title', 'text')
    .addColumn('account_thumb', 'text')
    .addColumn('linked_at', 'timestamptz')
    .addColumn('pending_expires_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await upLibrary(db);
}

async function upLibrary(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mediaserver_servers')
    .addColumn('server_id', 'text', (c) => c.primaryKey())
    .addColumn('friendly_name', 'text')
    .addColumn('version', 'text')
    .addColumn('platform', 'text')
    .addColumn('platform_version', 'text')
    .addColumn('listed_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('mediaserver_sections')
    .addColumn('server_id', 'text', (c) => c.notNull())
    .addColumn('section_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('agent', 'text')
    .addColumn('uuid', 'text')
    .addColumn('server_updated_at', 'integer')
    .addColumn('present', 'boolean', (c) => c.notNull())
    .addColumn('last_synced_at', 'timestamptz')
    .addColumn('last_sync', 'jsonb')
    .addPrimaryKeyConstraint('mediaserver_sections_pk', ['server_id', 'section_id'])
    .execute();
  await db.schema
    .createTable('mediaserver_items')
    .addColumn('server_id', 'text', (c) => c.notNull())
    .addColumn('rating_key', 'text', (c) => c.notNull())
    .addColumn('section_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('title_folded', 'text', (c) => c.notNull())
    .addColumn('parent_rating_key', 'text')
    .addColumn('grandparent_rating_key', 'text')
    .addColumn('parent_title', 'text')
    .addColumn('grandparent_title', 'text')
    .addColumn('item_index', 'integer')
    .addColumn('disc', 'integer')
    .addColumn('year', 'integer')
    .addColumn('duration_ms', 'integer')
    .addColumn('thumb', 'text')
    .addColumn('genres', 'jsonb', (c) => c.notNull())
    .addColumn('added_at', 'integer')
    .addColumn('server_updated_at', 'integer')
    .addColumn('view_count', 'integer')
    .addColumn('last_viewed_at', 'integer')
    .addColumn('user_rating', 'double precision')
    .addColumn('codec', 'text')
    .addColumn('container', 'text')
    .addColumn('bit_depth', 'integer')
    .addColumn('sampling_rate', 'integer')
    .addColumn('bitrate', 'integer')
    .addColumn('lossless', 'boolean')
    .addColumn('size', 'double precision')
    .addColumn('part_id', 'integer')
    .addColumn('part_key', 'text')
    .addColumn('canonical_id', 'text')
    .addColumn('deleted', 'boolean', (c) => c.notNull())
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('synced_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('mediaserver_items_pk', ['server_id', 'rating_key'])
    .execute();
  await db.schema.createIndex('mediaserver_items_section_kind').on('mediaserver_items').columns(['section_id', 'kind', 'deleted']).execute();
  await db.schema.createIndex('mediaserver_items_parent').on('mediaserver_items').columns(['server_id', 'parent_rating_key']).execute();
  await db.schema.createIndex('mediaserver_items_canonical').on('mediaserver_items').columns(['canonical_id']).execute();
}
