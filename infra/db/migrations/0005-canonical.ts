import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('canonical_docs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('name_folded', 'text')
    .addColumn('artist_id', 'text')
    .addColumn('artist_name', 'text')
    .addColumn('album_id', 'text')
    .addColumn('album_title', 'text')
    .addColumn('disc', 'integer')
    .addColumn('track_number', 'integer')
    .addColumn('isrc', 'text')
    .addColumn('upc', 'text')
    .addColumn('mbid', 'text')
    .addColumn('year', 'integer')
    .addColumn('cover_url', 'text')
    .addColumn('genres', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('tags', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('duration_ms', 'integer')
    .addColumn('preview_url', 'text')
    .addColumn('catalog_id', 'text')
    .addColumn('primary_type', 'text')
    .addColumn('secondary_types', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('audio_quality', 'jsonb')
    .addColumn('sources', 'jsonb', (c) => c.notNull())
    .addColumn('source_count', 'integer', (c) => c.notNull())
    .addColumn('facts', 'jsonb', (c) => c.notNull())
    .addColumn('merged_into', 'text')
    .addColumn('tombstoned', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('canonical_docs_kind_folded').on('canonical_docs').columns(['kind', 'name_folded']).execute();
  await db.schema.createIndex('canonical_docs_kind_artist_folded').on('canonical_docs').columns(['kind', 'artist_id', 'name_folded']).execute();
  await db.schema.createIndex('canonical_docs_album').on('canonical_docs').columns(['album_id']).execute();
  await db.schema.createIndex('canonical_docs_isrc').on('canonical_docs').columns(['isrc']).execute();
  await db.schema.createIndex('canonical_docs_upc').on('canonical_docs').columns(['upc']).execute();
  await db.schema.createIndex('canonical_docs_mbid').on('canonical_docs').columns(['kind', 'mbid']).execute();
  await db.schema.createIndex('canonical_docs_kind_created').on('canonical_docs').columns(['kind', 'created_at desc']).execute();
  await db.schema
    .createTable('external_refs')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('evidence', 'jsonb', (c) => c.notNull())
    .addColumn('linked_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('external_refs_pk', ['kind', 'source', 'external_id'])
    .execute();
  await db.schema.createIndex('external_refs_entity').on('external_refs').columns(['entity_id']).execute();
}
