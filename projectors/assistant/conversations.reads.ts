import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import { usernameKey } from '../../shared/usernames.ts';

/** A conversation in a listing: no message bodies. Stored conversations hold answered questions only. */
export const ConversationSummary = z.object({
  conversation_id: z.string(),
  question: z.string(),
  entity_ref: z.string().nullable(),
  state: z.literal('ok'),
  turns: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;

export const ConversationMessage = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  entity_ref: z.string().nullable(),
  at: z.string(),
});

export const ConversationDetail = ConversationSummary.extend({ messages: z.array(ConversationMessage) });
export type ConversationDetail = z.infer<typeof ConversationDetail>;

const summaryOf = (row: { conversation_id: string; question: string; entity_ref: string | null; turns: number; created_at: Date; updated_at: Date }): ConversationSummary => ({
  conversation_id: row.conversation_id,
  question: row.question,
  entity_ref: row.entity_ref,
  state: 'ok',
  turns: row.turns,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** The admin's conversations, the most recently active first. */
export async function listConversations(db: Kysely<Database>, username: string, limit: number): Promise<ConversationSummary[]> {
  const rows = await db
    .selectFrom('assistant_conversations')
    .selectAll()
    .where('username_key', '=', usernameKey(username))
    .orderBy('updated_at', 'desc')
    .orderBy('conversation_id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(summaryOf);
}

/** One of the admin's conversations with its messages, oldest first; undefined when it is not theirs. */
export async function findConversation(db: Kysely<Database>, username: string, conversationId: string): Promise<ConversationDetail | undefined> {
  const row = await db
    .selectFrom('assistant_conversations')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('username_key', '=', usernameKey(username))
    .executeTakeFirst();
  if (!row) return undefined;
  const turns = await db.selectFrom('assistant_turns').selectAll().where('conversation_id', '=', conversationId).orderBy('turn').execute();
  const messages = turns.flatMap((t) => {
    const at = t.asked_at.toISOString();
    return [
      { role: 'user' as const, content: t.question, entity_ref: t.entity_ref, at },
      { role: 'assistant' as const, content: t.answer, entity_ref: t.entity_ref, at },
    ];
  });
  return { ...summaryOf(row), messages };
}
