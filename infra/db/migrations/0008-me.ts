import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('favorites')
    .addColumn('username_key', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('recorded_id', 'text', (c) => c.notNull())
    .addColumn('canonical_id', 'text', (c) => c.notNull())
    .addColumn('added_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('favorites_pk', ['username_key', 'kind', 'recorded_id'])
    .execute();
  await db.schema.createIndex('favorites_canonical').on('favorites').columns(['kind', 'canonical_id']).execute();

  await db.schema
    .createTable('album_collection')
    .addColumn('username_key', 'text', (c) => c.notNull())
    .addColumn('recorded_id', 'text', (c) => c.notNull())
    .addColumn('canonical_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('wishlisted_at', 'timestamptz')
    .addColumn('owned_at', 'timestamptz')
    .addPrimaryKeyConstraint('album_collection_pk', ['username_key', 'recorded_id'])
    .execute();
  await db.schema.createIndex('album_collection_canonical').on('album_collection').columns(['canonical_id']).execute();

  await db.schema
    .createTable('comments')
    .addColumn('comment_id', 'text', (c) => c.primaryKey())
    .addColumn('username_key', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('canonical_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('edited', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comments_canonical').on('comments').columns(['kind', 'canonical_id']).execute();
  await db.schema.createIndex('comments_author').on('comments').columns(['username_key', 'created_at']).execute();
}
