import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('monitor_events')
    .addColumn('monitor_event_id', 'text', (c) => c.primaryKey())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('delivery_id', 'text')
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('media_type', 'text')
    .addColumn('user_name', 'text')
    .addColumn('title', 'text')
    .addColumn('artist', 'text')
    .addColumn('album', 'text')
    .addColumn('server', 'text')
    .addColumn('player', 'text')
    .addColumn('raw', 'jsonb', (c) => c.notNull())
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // Newest first, alone or within one filter value: each listing filter walks its own index in order.
  await db.schema.createIndex('monitor_events_received').on('monitor_events').columns(['received_at desc', 'monitor_event_id desc']).execute();
  for (const column of ['event', 'category', 'media_type', 'user_name']) {
    await db.schema.createIndex(`monitor_events_${column}`).on('monitor_events').columns([column, 'received_at desc']).execute();
  }
  await db.schema
    .createTable('monitor_event_values')
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('events', 'bigint', (c) => c.notNull().defaultTo(sql`0`))
    .addPrimaryKeyConstraint('monitor_event_values_pk', ['field', 'value'])
    .execute();
}
