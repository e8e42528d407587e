import type { AppContext } from '../../infra/context.ts';
import { aggregate } from '../../infra/eventstore/aggregate.ts';
import { handleCommand } from '../../infra/eventstore/command-handler.ts';
import type { WithoutMeta } from '../../shared/commands.ts';
import type { AssistantEvent } from '../../shared/events/assistant.events.ts';
import { newId } from '../../shared/ids.ts';
import { assistantConversationStream } from '../../shared/streams.ts';
import type { SessionUser } from '../../shared/users.ts';
import { callerSince } from '../me/account-since.ts';
import * as conversation from './conversation.decider.ts';
import { type ConversationCommand, ConversationNotFound, type ConversationState, type Turn, isOwnOpen } from './conversation.decider.ts';

/** The calling admin's conversations with the assistant: read for context, answered turns recorded, deleted. */
export function conversationCommands(ctx: AppContext, user: SessionUser) {
  let since: Promise<string> | undefined;
  const userSince = () => (since ??= callerSince(ctx, user));

  async function run(conversationId: string, command: WithoutMeta<ConversationCommand>) {
    const meta = { conversationId, username: user.username, userSince: await userSince(), now: new Date().toISOString() };
    return handleCommand<ConversationState, ConversationCommand, AssistantEvent>(
      ctx.store,
      assistantConversationStream(conversationId),
      conversation,
      { ...command, meta } as ConversationCommand,
      { actor: user.username },
    );
  }

  return {
    /** The turns so far of one of the caller's conversations; 404 when it is not theirs (or gone). */
    async turnsOf(conversationId: string): Promise<Turn[]> {
      const { state } = await aggregate<ConversationState, AssistantEvent>(ctx.store, assistantConversationStream(conversationId), conversation.evolve, conversation.initialState());
      if (!isOwnOpen(state, user.username, await userSince())) throw new ConversationNotFound();
      return state.turns;
    },

    /** Records an answered question: in a new conversation when no id is given. */
    async recordAnswer(conversationId: string | undefined, turn: Turn): Promise<{ conversationId: string; turn: number }> {
      const id = conversationId ?? newId();
      const command = { question: turn.question, entityRef: turn.entityRef, answer: turn.answer };
      const handled = await run(id, conversationId ? { type: 'ContinueConversation', ...command } : { type: 'StartConversation', ...command });
      return { conversationId: id, turn: handled.state.turns.length };
    },

    async delete(conversationId: string): Promise<void> {
      await run(conversationId, { type: 'DeleteConversation' });
    },
  };
}
