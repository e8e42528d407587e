import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('event_counts')
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('events', 'bigint', (c) => c.notNull().defaultTo(sql`0`))
    .addColumn('streams', 'bigint', (c) => c.notNull().defaultTo(sql`0`))
    .addColumn('first_at', 'timestamptz', (c) => c.notNull())
    .addColumn('last_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_counts_pk', ['category', 'event_type'])
    .execute();
  await db.schema
    .createTable('ref_counts')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('refs', 'bigint', (c) => c.notNull().defaultTo(sql`0`))
    .addPrimaryKeyConstraint('ref_counts_pk', ['kind', 'source'])
    .execute();
  await db.schema
    .createTable('counted_through')
    .addColumn('counter', 'text', (c) => c.primaryKey())
    .addColumn('position', 'text', (c) => c.notNull())
    .execute();
}
