import type { Kysely } from 'kysely';

/**
 * What several processes on one PostgreSQL share (docs/deploy.md): who runs each task (a lease a
 * worker renews while the task runs), and rebuilds asked of whichever process owns the projections.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('task_leases')
    .addColumn('task_id', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('projection_rebuild_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('names', 'jsonb', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('claimed_by', 'text')
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('events', 'integer')
    .addColumn('error', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
}
