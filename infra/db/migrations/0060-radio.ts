import { type Kysely, sql } from 'kysely';

/**
 * Radio read models: sessions and their picks (projector `radio_sessions`), the cross-session
 * feedback (`radio_feedback`) and the discoveries (`radio_discoveries`). Also an index on the
 * scrobble mirror by track, for the recency of a pool's tracks at every pick.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('radio_sessions')
    .addColumn('session_id', 'text', (c) => c.primaryKey())
    .addColumn('username_key', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('seed_kind', 'text', (c) => c.notNull())
    .addColumn('seed_id', 'text', (c) => c.notNull())
    .addColumn('seed_label', 'text', (c) => c.notNull())
    .addColumn('pool_size', 'integer', (c) => c.notNull())
    .addColumn('pool_count', 'integer', (c) => c.notNull())
    .addColumn('track_count', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ended_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('radio_sessions_by_user').on('radio_sessions').columns(['username_key', 'started_at desc', 'session_id desc']).execute();
  await db.schema
    .createTable('radio_picks')
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('canonical_track_id', 'text', (c) => c.notNull())
    .addColumn('artist_id', 'text')
    .addColumn('score', 'double precision', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text')
    .addColumn('feedback', 'text')
    .addColumn('picked_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('radio_picks_pk', ['session_id', 'position'])
    .execute();
  await db.schema
    .createTable('radio_feedback')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .addColumn('username_key', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('canonical_track_id', 'text', (c) => c.notNull())
    .addColumn('artist_id', 'text')
    .addColumn('signal', 'text', (c) => c.notNull())
    .addColumn('given_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('radio_feedback_by_user').on('radio_feedback').columns(['username_key', 'session_id']).execute();
  await db.schema
    .createTable('radio_discoveries')
    .addColumn('discovery_id', 'text', (c) => c.primaryKey())
    .addColumn('username_key', 'text', (c) => c.notNull())
    .addColumn('artist_name', 'text', (c) => c.notNull())
    .addColumn('artist_folded', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('title_folded', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('similarity', 'double precision', (c) => c.notNull())
    .addColumn('wanted_count', 'integer', (c) => c.notNull())
    .addColumn('canonical_track_id', 'text')
    .addColumn('album_title', 'text')
    .addColumn('album_id', 'text')
    .addColumn('album_source', 'text')
    .addColumn('dismissed', 'boolean', (c) => c.notNull())
    .addColumn('first_wanted_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_wanted_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('radio_discoveries_ranked').on('radio_discoveries').columns(['username_key', 'wanted_count desc', 'similarity desc', 'discovery_id']).execute();
  await db.schema
    .createTable('radio_discovery_wants')
    .addColumn('discovery_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('radio_discovery_wants_pk', ['discovery_id', 'session_id'])
    .execute();
  await sql`create index radio_discoveries_without_album on radio_discoveries (discovery_id) where album_title is null`.execute(db);
  await db.schema.createIndex('scrobbles_user_track').on('scrobbles').columns(['username_key', 'canonical_track_id', 'uts desc']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('scrobbles_user_track').execute();
  for (const table of ['radio_discovery_wants', 'radio_discoveries', 'radio_feedback', 'radio_picks', 'radio_sessions']) await db.schema.dropTable(table).execute();
}
