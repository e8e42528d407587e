import { z } from 'zod';

/**
 * The admin assistant's conversations: one stream per conversation, `assistantconversation-<id>`,
 * written by the admin who asked. Only answered questions are recorded (a failed answer is not);
 * deleting a conversation leaves its history in the log and drops it from the read model.
 */
export const AssistantQuestionAnswered = z.object({
  conversation_id: z.string(),
  username: z.string(),
  /** 1 for the question that started the conversation. */
  turn: z.number().int().min(1),
  question: z.string(),
  entity_ref: z.string().nullable(),
  answer: z.string(),
  at: z.string(),
});
export const AssistantConversationDeleted = z.object({ conversation_id: z.string(), username: z.string(), at: z.string() });

export const assistantEventSchemas = {
  AssistantQuestionAnswered,
  AssistantConversationDeleted,
} as const;

type Infer<T extends z.ZodType> = z.infer<T>;
export type AssistantEvent =
  | { type: 'AssistantQuestionAnswered'; data: Infer<typeof AssistantQuestionAnswered> }
  | { type: 'AssistantConversationDeleted'; data: Infer<typeof AssistantConversationDeleted> };
