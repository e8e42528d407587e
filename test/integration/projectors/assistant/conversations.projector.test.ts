import { expect } from 'chai';
import type { DatabaseHandle } from '../../../../infra/db/create-db.ts';
import type { StoredEvent } from '../../../../infra/projections/projector.ts';
import { assistantConversationsProjector } from '../../../../projectors/assistant/conversations.projector.ts';
import { findConversation, listConversations } from '../../../../projectors/assistant/conversations.reads.ts';
import { freshDatabase } from '../../../support/database.ts';

let position = 0;
const stored = (type: string, data: unknown) => ({ id: `e${++position}`, type, data, stream_id: 's', revision: position, position: String(position), metadata: {}, created_at: new Date() }) as unknown as StoredEvent;
const answered = (conversation_id: string, username: string, turn: number, at: string) =>
  stored('AssistantQuestionAnswered', { conversation_id, username, turn, question: `q${turn}`, entity_ref: turn === 1 ? 'album:A' : null, answer: `a${turn}`, at });

describe('assistant conversations projector', () => {
  let database: DatabaseHandle;
  before(async function () {
    this.timeout(120_000);
    database = await freshDatabase();
  });
  after(() => database.close());

  const apply = (...events: StoredEvent[]) => database.db.transaction().execute((trx) => assistantConversationsProjector.apply(trx, events));

  it('given the same turns and a deletion applied twice, then the read model is the same as after once', async () => {
    const events = [
      answered('C1', 'Alice', 1, '2026-01-01T00:00:00.000Z'),
      answered('C1', 'Alice', 2, '2026-01-01T00:05:00.000Z'),
      answered('C2', 'alice', 1, '2026-01-01T00:02:00.000Z'),
      answered('C3', 'bob', 1, '2026-01-01T00:03:00.000Z'),
      stored('AssistantConversationDeleted', { conversation_id: 'C2', username: 'alice', at: '2026-01-01T00:06:00.000Z' }),
    ];
    await apply(...events);
    const once = [await listConversations(database.db, 'ALICE', 50), await findConversation(database.db, 'alice', 'C1')];
    await apply(...events);
    expect([await listConversations(database.db, 'ALICE', 50), await findConversation(database.db, 'alice', 'C1')]).to.deep.equal(once);
    expect(once[0]).to.deep.equal([
      { conversation_id: 'C1', question: 'q1', entity_ref: 'album:A', state: 'ok', turns: 2, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:05:00.000Z' },
    ]);
    expect((once[1] as { messages: { role: string; content: string }[] }).messages.map((m) => `${m.role}:${m.content}`)).to.deep.equal(['user:q1', 'assistant:a1', 'user:q2', 'assistant:a2']);
    expect(await findConversation(database.db, 'alice', 'C3'), "bob's").to.equal(undefined);
  });

  it("given a deleted account, then its conversations leave the read model and others' stay", async () => {
    await apply(stored('UserDeleted', { username: 'alice', at: '2026-01-02T00:00:00.000Z' }));
    expect(await listConversations(database.db, 'alice', 50)).to.deep.equal([]);
    expect(await database.db.selectFrom('assistant_turns').select('conversation_id').distinct().execute()).to.deep.equal([{ conversation_id: 'C3' }]);
  });
});
