import type { Kysely } from 'kysely';

/** The streamer's read models: links, and the mirror of each linked account. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('streamer_links')
    .addColumn('username_key', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text')
    .addColumn('display_name', 'text')
    .addColumn('linked_at', 'timestamptz')
    .addColumn('state', 'text')
    .addColumn('state_reason', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  const mirror = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('username_key', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text', (c) => c.notNull());
  const track = <T extends { addColumn: (...a: any[]) => T }>(t: T): T =>
    t
      .addColumn('name', 'text', (c: any) => c.notNull())
      .addColumn('artist_name', 'text')
      .addColumn('album_name', 'text')
      .addColumn('isrc', 'text')
      .addColumn('duration_ms', 'integer')
      .addColumn('canonical_track_id', 'text');
  await track(mirror('streamer_saved_tracks').addColumn('track_id', 'text', (c) => c.notNull()))
    .addColumn('added_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('streamer_saved_tracks_pk', ['username_key', 'account_id', 'track_id'])
    .execute();
  await mirror('streamer_saved_albums')
    .addColumn('album_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('artist_name', 'text')
    .addColumn('upc', 'text')
    .addColumn('added_at', 'timestamptz', (c) => c.notNull())
    .addColumn('canonical_album_id', 'text')
    .addPrimaryKeyConstraint('streamer_saved_albums_pk', ['username_key', 'account_id', 'album_id'])
    .execute();
  await mirror('streamer_followed_artists')
    .addColumn('artist_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('canonical_artist_id', 'text')
    .addPrimaryKeyConstraint('streamer_followed_artists_pk', ['username_key', 'account_id', 'artist_id'])
    .execute();
  await mirror('streamer_playlists')
    .addColumn('playlist_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('owner_id', 'text', (c) => c.notNull())
    .addColumn('owner_name', 'text')
    .addColumn('owned', 'boolean', (c) => c.notNull())
    .addColumn('public', 'boolean')
    .addColumn('collaborative', 'boolean', (c) => c.notNull())
    .addColumn('snapshot_id', 'text', (c) => c.notNull())
    .addColumn('image_url', 'text')
    .addColumn('tracks_total', 'integer', (c) => c.notNull())
    .addColumn('synced_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('streamer_playlists_pk', ['username_key', 'account_id', 'playlist_id'])
    .execute();
  await track(mirror('streamer_playlist_items').addColumn('playlist_id', 'text', (c) => c.notNull()).addColumn('position', 'integer', (c) => c.notNull()).addColumn('track_id', 'text'))
    .addColumn('added_at', 'timestamptz')
    .addColumn('is_local', 'boolean', (c) => c.notNull())
    .addPrimaryKeyConstraint('streamer_playlist_items_pk', ['username_key', 'account_id', 'playlist_id', 'position'])
    .execute();
  await track(mirror('streamer_plays').addColumn('played_at', 'timestamptz', (c) => c.notNull()).addColumn('track_id', 'text', (c) => c.notNull()))
    .addPrimaryKeyConstraint('streamer_plays_pk', ['username_key', 'account_id', 'played_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['streamer_plays', 'streamer_playlist_items', 'streamer_playlists', 'streamer_followed_artists', 'streamer_saved_albums', 'streamer_saved_tracks', 'streamer_links']) {
    await db.schema.dropTable(table).execute();
  }
}
