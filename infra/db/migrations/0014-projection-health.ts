import { type Kysely, sql } from 'kysely';

/**
 * Columns that copy an integer out of an event become `bigint`: the event schemas admit any safe
 * integer (a scrobble dated 2065, a media server reporting seconds as milliseconds), and a value the
 * log holds but a column refuses stops its read model. Counters the projectors compute themselves
 * (plays, totals, revisions, session versions) stay `integer`: they count events of one user or
 * stream. Integers come back as numbers (see create-db.ts).
 */
const WIDENED: Record<string, string[]> = {
  canonical_docs: ['disc', 'track_number', 'year', 'duration_ms'],
  dashboard_scrobbles: ['uts'],
  dashboard_invalid: ['uts'],
  dashboard_entities: ['first_uts', 'last_uts'],
  mediaserver_links: ['account_id'],
  mediaserver_sections: ['server_updated_at'],
  mediaserver_items: [
    'item_index', 'disc', 'year', 'duration_ms', 'added_at', 'server_updated_at', 'view_count', 'last_viewed_at',
    'bit_depth', 'sampling_rate', 'bitrate', 'part_id',
  ],
  mediaserver_playlists: ['leaf_count'],
  mediaserver_playlist_items: ['position'],
};

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, columns] of Object.entries(WIDENED)) {
    // One statement per table: the table is rewritten once, whatever the number of columns.
    const changes = columns.map((column) => sql`alter column ${sql.ref(column)} type bigint`);
    await sql`alter table ${sql.table(table)} ${sql.join(changes)}`.execute(db);
  }
  // A projector that keeps failing on an event stops alone, and says where (see runner.ts).
  await db.schema
    .alterTable('projection_checkpoints')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('live'))
    .addColumn('stalled_since', 'timestamptz')
    .addColumn('stalled_event_position', 'text')
    .addColumn('stalled_event_id', 'text')
    .addColumn('stalled_stream', 'text')
    .addColumn('stalled_event_type', 'text')
    .addColumn('stalled_error', 'text')
    .execute();
}
