import { type Kysely, sql } from 'kysely';

/**
 * The log keeps the keys its reads use: its order (transaction id, global position), now the
 * primary key, and a stream's revisions. The global position's own index and the event id's unique
 * index were written on every append and read by nothing.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table events drop constraint events_pkey`.execute(db);
  await sql`alter table events drop constraint events_event_id_key`.execute(db);
  await sql`drop index events_log_order`.execute(db);
  await sql`alter table events add constraint events_log_order primary key (transaction_id, global_position)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table events drop constraint events_log_order`.execute(db);
  await sql`alter table events add constraint events_pkey primary key (global_position)`.execute(db);
  await sql`alter table events add constraint events_event_id_key unique (event_id)`.execute(db);
  await sql`create index events_log_order on events (transaction_id, global_position)`.execute(db);
}
