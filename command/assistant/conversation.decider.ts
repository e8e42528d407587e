import type { AssistantEvent } from '../../shared/events/assistant.events.ts';
import { Conflict, NotFound } from '../../shared/errors.ts';
import { assertNever } from '../../shared/never.ts';
import { usernameKey } from '../../shared/usernames.ts';

export interface Turn {
  question: string;
  entityRef: string | null;
  answer: string;
}

/** One admin conversation, stream `assistantconversation-<id>`: its owner and its answered turns. */
export interface ConversationState {
  status: 'none' | 'open' | 'deleted';
  owner: string | null;
  startedAt: string | null;
  turns: Turn[];
}

export const initialState = (): ConversationState => ({ status: 'none', owner: null, startedAt: null, turns: [] });

export function evolve(state: ConversationState, event: AssistantEvent): ConversationState {
  switch (event.type) {
    case 'AssistantQuestionAnswered': {
      const { username, question, entity_ref, answer, at } = event.data;
      const turn = { question, entityRef: entity_ref, answer };
      if (state.status === 'none') return { status: 'open', owner: username, startedAt: at, turns: [turn] };
      return { ...state, turns: [...state.turns, turn] };
    }
    case 'AssistantConversationDeleted':
      return { ...state, status: 'deleted', turns: [] };
    default:
      return assertNever(event);
  }
}

interface Meta {
  conversationId: string;
  /** The admin asking: a conversation is theirs alone, whatever the role of anyone else. */
  username: string;
  /** When the caller's account was registered: a deleted namesake's conversations are not theirs. */
  userSince: string;
  now: string;
}

export type ConversationCommand =
  | { type: 'StartConversation'; question: string; entityRef: string | null; answer: string; meta: Meta }
  | { type: 'ContinueConversation'; question: string; entityRef: string | null; answer: string; meta: Meta }
  | { type: 'DeleteConversation'; meta: Meta };

/** The caller's own open conversation; anyone else's, a deleted one and none at all look the same. */
export function isOwnOpen(state: ConversationState, username: string, userSince: string): boolean {
  return state.status === 'open' && usernameKey(state.owner ?? '') === usernameKey(username) && state.startedAt! >= userSince;
}

export function decide(state: ConversationState, command: ConversationCommand): AssistantEvent[] {
  const { conversationId: conversation_id, username, userSince, now: at } = command.meta;
  if (command.type === 'StartConversation') {
    if (state.status !== 'none') throw new Conflict(`conversation ${conversation_id} already exists`);
    return [{ type: 'AssistantQuestionAnswered', data: { conversation_id, username, turn: 1, question: command.question, entity_ref: command.entityRef, answer: command.answer, at } }];
  }
  if (!isOwnOpen(state, username, userSince)) throw new ConversationNotFound();
  switch (command.type) {
    case 'ContinueConversation': {
      const turn = state.turns.length + 1;
      return [{ type: 'AssistantQuestionAnswered', data: { conversation_id, username, turn, question: command.question, entity_ref: command.entityRef, answer: command.answer, at } }];
    }
    case 'DeleteConversation':
      return [{ type: 'AssistantConversationDeleted', data: { conversation_id, username, at } }];
    default:
      return assertNever(command);
  }
}

export class ConversationNotFound extends NotFound {
  constructor() {
    super('Conversation not found');
  }
}
