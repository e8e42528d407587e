import type { Kysely } from 'kysely';

/** Audio features the streamer answered, per track id: a cache of upstream payloads, not events. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('streamer_audio_features')
    .addColumn('track_id', 'text', (c) => c.primaryKey())
    .addColumn('features', 'jsonb')
    .addColumn('fetched_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('streamer_audio_features').execute();
}
