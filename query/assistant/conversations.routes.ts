import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { queryInt } from '../../infra/http/params.ts';
import { ConversationDetail, ConversationSummary, findConversation, listConversations } from '../../projectors/assistant/conversations.reads.ts';
import { NotFound } from '../../shared/errors.ts';

export const conversationQueryRoutes = [
  defineRoute({
    method: 'get',
    path: '/admin/ask/conversations',
    tag: 'assistant',
    summary: "The caller's conversations with the assistant, most recently active first",
    description: 'No message bodies: each row has the question that started it, its `entity_ref` and how many questions it holds.',
    access: 'admin',
    query: z.object({ limit: queryInt(50, { min: 1, max: 500 }) }),
    response: z.array(ConversationSummary),
    handler: ({ ctx, user, query }) => listConversations(ctx.db, user.username, query.limit),
  }),
  defineRoute({
    method: 'get',
    path: '/admin/ask/conversations/{conversation_id}',
    tag: 'assistant',
    summary: 'One of the caller\'s conversations, with its messages oldest first',
    description: "Another admin's conversation is a 404.",
    access: 'admin',
    params: z.object({ conversation_id: z.string().min(1).max(64) }),
    response: ConversationDetail,
    errors: { 404: "No such conversation of the caller's" },
    handler: async ({ ctx, user, params }) => {
      const found = await findConversation(ctx.db, user.username, params.conversation_id);
      if (!found) throw new NotFound('Conversation not found');
      return found;
    },
  }),
];
