/** The admin assistant's live conversations (deleted ones leave; their history stays in the log). */
export interface AssistantConversationsTable {
  conversation_id: string;
  username_key: string;
  username: string;
  /** The question that started the conversation: its title in listings. */
  question: string;
  entity_ref: string | null;
  turns: number;
  created_at: Date;
  updated_at: Date;
}

/** Each answered question of a conversation, in order. */
export interface AssistantTurnsTable {
  conversation_id: string;
  turn: number;
  question: string;
  entity_ref: string | null;
  answer: string;
  asked_at: Date;
}
