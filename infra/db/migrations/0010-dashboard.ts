import type { Kysely } from 'kysely';

/**
 * The scrobbler dashboard's read models. Every table is keyed by the stream's user and the scrobbler
 * account ("listener") the scrobbles came from, so a relink to another account shows only its own
 * listening. Aggregates are maintained per event, so reads touch a bounded number of rows.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const owner = (t: ReturnType<Kysely<any>['schema']['createTable']>) =>
    t.addColumn('user_key', 'text', (c) => c.notNull()).addColumn('listener', 'text', (c) => c.notNull());

  await owner(db.schema.createTable('dashboard_scrobbles'))
    .addColumn('scrobble_id', 'text', (c) => c.notNull())
    .addColumn('uts', 'integer', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('dow', 'integer', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('artist', 'text', (c) => c.notNull())
    .addColumn('album', 'text')
    .addColumn('track', 'text', (c) => c.notNull())
    .addColumn('artist_key', 'text', (c) => c.notNull())
    .addColumn('album_key', 'text')
    .addColumn('track_key', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_scrobbles_pk', ['user_key', 'scrobble_id'])
    .execute();
  // One time index serves latest scrobbles, windows' partial days and heatmap cells (a cell walk
  // stops after its limit or at the window); every index here costs the import on each scrobble.
  await db.schema.createIndex('dashboard_scrobbles_recent').on('dashboard_scrobbles').columns(['user_key', 'listener', 'uts']).execute();

  await owner(db.schema.createTable('dashboard_invalid'))
    .addColumn('scrobble_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('uts', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_invalid_pk', ['user_key', 'scrobble_id'])
    .execute();

  await owner(db.schema.createTable('dashboard_totals'))
    .addColumn('scrobbles', 'integer', (c) => c.notNull())
    .addColumn('artists', 'integer', (c) => c.notNull())
    .addColumn('albums', 'integer', (c) => c.notNull())
    .addColumn('tracks', 'integer', (c) => c.notNull())
    .addColumn('last_imported_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_totals_pk', ['user_key', 'listener'])
    .execute();

  await owner(db.schema.createTable('dashboard_days'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('plays', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_days_pk', ['user_key', 'listener', 'day'])
    .execute();

  await owner(db.schema.createTable('dashboard_hours'))
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('plays', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_hours_pk', ['user_key', 'listener', 'day', 'hour'])
    .execute();

  await owner(db.schema.createTable('dashboard_heatmap'))
    .addColumn('dow', 'integer', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('plays', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_heatmap_pk', ['user_key', 'listener', 'dow', 'hour'])
    .execute();

  await owner(db.schema.createTable('dashboard_entity_days'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('entity_key', 'text', (c) => c.notNull())
    .addColumn('plays', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_entity_days_pk', ['user_key', 'listener', 'kind', 'day', 'entity_key'])
    .execute();

  // PGlite gathers no statistics: each table has one index per access path, so a plan cannot pick
  // a scan over the whole history. Per-entity reads go through months, windowed reads through days.
  await owner(db.schema.createTable('dashboard_entity_months'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('entity_key', 'text', (c) => c.notNull())
    .addColumn('month', 'integer', (c) => c.notNull())
    .addColumn('plays', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_entity_months_pk', ['user_key', 'listener', 'kind', 'entity_key', 'month'])
    .execute();

  await owner(db.schema.createTable('dashboard_entities'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('entity_key', 'text', (c) => c.notNull())
    .addColumn('plays', 'integer', (c) => c.notNull())
    .addColumn('first_uts', 'integer', (c) => c.notNull())
    .addColumn('last_uts', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('artist_name', 'text')
    .addColumn('artist_key', 'text')
    .addPrimaryKeyConstraint('dashboard_entities_pk', ['user_key', 'listener', 'kind', 'entity_key'])
    .execute();
  await db.schema.createIndex('dashboard_entities_plays').on('dashboard_entities').columns(['user_key', 'listener', 'kind', 'plays']).execute();
  await db.schema.createIndex('dashboard_entities_first').on('dashboard_entities').columns(['user_key', 'listener', 'kind', 'first_uts']).execute();
  await db.schema.createIndex('dashboard_entities_artist').on('dashboard_entities').columns(['user_key', 'listener', 'kind', 'artist_key', 'plays']).execute();

  await owner(db.schema.createTable('dashboard_streaks'))
    .addColumn('start_day', 'integer', (c) => c.notNull())
    .addColumn('end_day', 'integer', (c) => c.notNull())
    .addColumn('length', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_streaks_pk', ['user_key', 'listener', 'start_day'])
    .execute();
  await db.schema.createIndex('dashboard_streaks_end').on('dashboard_streaks').columns(['user_key', 'listener', 'end_day']).execute();
  await db.schema.createIndex('dashboard_streaks_length').on('dashboard_streaks').columns(['user_key', 'listener', 'length']).execute();

  // Merged-away canonical ids and the id they now count under, chains collapsed.
  await db.schema
    .createTable('dashboard_redirects')
    .addColumn('from_id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('to_id', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dashboard_redirects_to').on('dashboard_redirects').columns(['to_id']).execute();
}
