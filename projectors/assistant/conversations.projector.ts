import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type Projector, type StoredEvent, oneByOne } from '../../infra/projections/projector.ts';
import type { AssistantEvent } from '../../shared/events/assistant.events.ts';
import type { UserEvent } from '../../shared/events/users.events.ts';
import { assertNever } from '../../shared/never.ts';
import { usernameKey } from '../../shared/usernames.ts';

type Handled = AssistantEvent | Extract<UserEvent, { type: 'UserDeleted' }>;

/** assistant_conversations and assistant_turns: each admin's conversations with the assistant. */
export const assistantConversationsProjector: Projector = {
  name: 'assistant_conversations',
  version: 1,
  handles: ['AssistantQuestionAnswered', 'AssistantConversationDeleted', 'UserDeleted'],
  tables: ['assistant_turns', 'assistant_conversations'],
  apply: oneByOne<Handled>(applyOne),
};

async function applyOne(trx: Transaction<Database>, event: StoredEvent & Handled): Promise<void> {
  switch (event.type) {
    case 'UserDeleted': {
      const mine = trx.selectFrom('assistant_conversations').select('conversation_id').where('username_key', '=', usernameKey(event.data.username));
      await trx.deleteFrom('assistant_turns').where('conversation_id', 'in', mine).execute();
      await trx.deleteFrom('assistant_conversations').where('username_key', '=', usernameKey(event.data.username)).execute();
      return;
    }
    case 'AssistantQuestionAnswered': {
      const { conversation_id, username, turn, question, entity_ref, answer, at } = event.data;
      const when = new Date(at);
      await trx
        .insertInto('assistant_turns')
        .values({ conversation_id, turn, question, entity_ref, answer, asked_at: when })
        .onConflict((oc) => oc.columns(['conversation_id', 'turn']).doNothing())
        .execute();
      await trx
        .insertInto('assistant_conversations')
        .values({ conversation_id, username_key: usernameKey(username), username, question, entity_ref, turns: turn, created_at: when, updated_at: when })
        .onConflict((oc) => oc.column('conversation_id').doUpdateSet({ turns: turn, updated_at: when }))
        .execute();
      return;
    }
    case 'AssistantConversationDeleted':
      await trx.deleteFrom('assistant_turns').where('conversation_id', '=', event.data.conversation_id).execute();
      await trx.deleteFrom('assistant_conversations').where('conversation_id', '=', event.data.conversation_id).execute();
      return;
    default:
      assertNever(event);
  }
}
