import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('task_history')
    .addColumn('task_id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('started_by', 'text')
    .addColumn('params', 'jsonb', (c) => c.notNull())
    .addColumn('progress', 'jsonb')
    .addColumn('summary', 'jsonb')
    .addColumn('error', 'text')
    .addColumn('cancel_requested', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('started_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('task_history_started').on('task_history').columns(['started_at desc', 'task_id desc']).execute();
  await db.schema.createIndex('task_history_name_status').on('task_history').columns(['name', 'status']).execute();
}
