import { expect } from 'chai';
import * as conversation from '../../../../command/assistant/conversation.decider.ts';
import type { ConversationCommand } from '../../../../command/assistant/conversation.decider.ts';
import type { WithoutMeta } from '../../../../shared/commands.ts';
import { Conflict } from '../../../../shared/errors.ts';
import type { AssistantEvent } from '../../../../shared/events/assistant.events.ts';

const at = '2026-01-01T00:00:00.000Z';
const asked = (turn: number, username = 'Alice'): AssistantEvent => ({
  type: 'AssistantQuestionAnswered',
  data: { conversation_id: 'C', username, turn, question: `q${turn}`, entity_ref: null, answer: `a${turn}`, at },
});
const deleted: AssistantEvent = { type: 'AssistantConversationDeleted', data: { conversation_id: 'C', username: 'alice', at } };
const turn = (n: number) => ({ question: `q${n}`, entityRef: null, answer: `a${n}` });

function given(...events: AssistantEvent[]) {
  const state = events.reduce(conversation.evolve, conversation.initialState());
  return {
    when: (command: WithoutMeta<ConversationCommand>, username = 'alice', userSince = '2025-06-01T00:00:00.000Z') => ({
      then: (expected: AssistantEvent[] | (new (...a: any[]) => Error)) => {
        const run = () => conversation.decide(state, { ...command, meta: { conversationId: 'C', username, userSince, now: at } } as ConversationCommand);
        if (typeof expected === 'function') expect(run).to.throw(expected);
        else expect(run()).to.deep.equal(expected);
      },
    }),
  };
}

describe('conversation decider', () => {
  it('starts a conversation with its first answered question, once', () => {
    given().when({ type: 'StartConversation', ...turn(1) }, 'Alice').then([asked(1)]);
    given(asked(1)).when({ type: 'StartConversation', ...turn(1) }).then(Conflict);
  });

  it('numbers each follow-up of the owner (whatever the case of the name)', () => {
    given(asked(1), asked(2)).when({ type: 'ContinueConversation', ...turn(3) }, 'ALICE').then([asked(3, 'ALICE')]);
  });

  it("refuses another admin's conversation, an unknown one, a deleted one and a deleted namesake's as not found", () => {
    given(asked(1)).when({ type: 'ContinueConversation', ...turn(2) }, 'bob').then(conversation.ConversationNotFound);
    given(asked(1)).when({ type: 'DeleteConversation' }, 'bob').then(conversation.ConversationNotFound);
    given().when({ type: 'ContinueConversation', ...turn(1) }).then(conversation.ConversationNotFound);
    given(asked(1), deleted).when({ type: 'ContinueConversation', ...turn(2) }).then(conversation.ConversationNotFound);
    given(asked(1), deleted).when({ type: 'DeleteConversation' }).then(conversation.ConversationNotFound);
    given(asked(1)).when({ type: 'ContinueConversation', ...turn(2) }, 'alice', '2026-02-01T00:00:00.000Z').then(conversation.ConversationNotFound);
  });

  it('lets the owner delete it', () => {
    given(asked(1)).when({ type: 'DeleteConversation' }).then([deleted]);
  });

  it('keeps the turns for the next question', () => {
    const state = [asked(1), asked(2)].reduce(conversation.evolve, conversation.initialState());
    expect(state.turns).to.deep.equal([turn(1), turn(2)]);
  });
});
