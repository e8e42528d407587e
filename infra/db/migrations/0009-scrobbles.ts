import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('scrobbles')
    .addColumn('scrobble_id', 'text', (c) => c.primaryKey())
    .addColumn('username_key', 'text', (c) => c.notNull())
    .addColumn('scrobbler_username', 'text', (c) => c.notNull())
    .addColumn('uts', 'bigint', (c) => c.notNull())
    .addColumn('artist', 'text', (c) => c.notNull())
    .addColumn('album', 'text')
    .addColumn('track', 'text', (c) => c.notNull())
    .addColumn('artist_mbid', 'text')
    .addColumn('album_mbid', 'text')
    .addColumn('track_mbid', 'text')
    .addColumn('canonical_artist_id', 'text')
    .addColumn('canonical_album_id', 'text')
    .addColumn('canonical_track_id', 'text')
    .addColumn('invalid_kind', 'text')
    .addColumn('imported_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('scrobbles_user_uts').on('scrobbles').columns(['username_key', 'uts desc', 'scrobble_id desc']).execute();
  await db.schema.createIndex('scrobbles_invalid').on('scrobbles').columns(['invalid_kind', 'uts']).where('invalid_kind', 'is not', null).execute();

  await db.schema
    .createTable('scrobble_mirror')
    .addColumn('username_key', 'text', (c) => c.notNull())
    .addColumn('scrobbler_username', 'text', (c) => c.notNull())
    .addColumn('scrobble_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('valid_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('newest_uts', 'bigint')
    .addColumn('oldest_uts', 'bigint')
    .addColumn('last_imported_at', 'timestamptz')
    .addColumn('last_refreshed_at', 'timestamptz')
    .addPrimaryKeyConstraint('scrobble_mirror_pk', ['username_key', 'scrobbler_username'])
    .execute();
}
