import type { Kysely } from 'kysely';

/** The admin assistant's conversations and their turns (projector `assistant_conversations`). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('assistant_conversations')
    .addColumn('conversation_id', 'text', (c) => c.primaryKey())
    .addColumn('username_key', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('entity_ref', 'text')
    .addColumn('turns', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('assistant_conversations_by_user').on('assistant_conversations').columns(['username_key', 'updated_at desc']).execute();
  await db.schema
    .createTable('assistant_turns')
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('turn', 'integer', (c) => c.notNull())
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('entity_ref', 'text')
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('asked_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('assistant_turns_pk', ['conversation_id', 'turn'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('assistant_turns').execute();
  await db.schema.dropTable('assistant_conversations').execute();
}
