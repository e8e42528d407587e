import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { askModel, modelConfigured } from '../../infra/upstreams/llm/ask-model.ts';
import type { ChatMessage } from '../../infra/upstreams/llm/chat-completions.ts';
import { type FailedAnswer, clip } from '../../shared/assistant.ts';
import type { SessionUser } from '../../shared/users.ts';
import { entityContext, libraryCounts } from './admin-context.lookups.ts';
import type { Turn } from './conversation.decider.ts';
import { conversationCommands } from './conversations.ts';

/** The most earlier turns a follow-up question carries, and how much of each. */
const MAX_HISTORY_TURNS = 10;
const MAX_TURN_CHARS = 2_000;
/** A stored answer is bounded: a runaway model does not fill the log. */
export const MAX_ANSWER_CHARS = 20_000;

/** What the model answers: `{"answer": string}`. */
const ModelAnswer = z.object({ answer: z.string().trim().min(1).max(MAX_ANSWER_CHARS) });

const SYSTEM = [
  'You are the assistant of the administrator of a self-hosted personal music library.',
  'The library keeps one canonical artist, album and track per real thing, merged from several sources',
  '(mediaserver, scrobbler, streamer, catalog, store, metabase, releasedb, features); each entity carries external refs (source and external id),',
  'and its event history records what each source reported and why each ref was linked.',
  'Answer the question from the context given. When you state a fact about an entity, say which source reported it and when, from its history.',
  'If the context does not hold the answer, say so plainly.',
  'Reply with one JSON object and nothing else: {"answer": string}.',
].join(' ');

export interface AskBody {
  question: string;
  conversation_id?: string | undefined;
  entity_ref?: string | undefined;
}

export type AdminAskAnswer =
  | { state: 'ok'; conversation_id: string; turn: number; answer: string; entity_ref: string | null }
  | { state: 'not_configured' }
  | FailedAnswer;

/**
 * One question to the assistant. A follow-up without an `entity_ref` keeps the conversation's last
 * one. Only an answered question is recorded; a failed one leaves the conversation as it was.
 */
export async function adminAsk(ctx: AppContext, user: SessionUser, body: AskBody): Promise<AdminAskAnswer> {
  if (!modelConfigured(ctx.config)) return { state: 'not_configured' };
  const commands = conversationCommands(ctx, user);
  const earlier = body.conversation_id ? await commands.turnsOf(body.conversation_id) : [];
  const ref = body.entity_ref ?? earlier.at(-1)?.entityRef ?? undefined;
  const entity = ref ? await entityContext(ctx, ref) : undefined;
  const outcome = await askModel(ctx.config, await messages(ctx, body.question, earlier, entity?.text), ModelAnswer, 'admin_ask');
  if (outcome.state !== 'ok') return outcome;
  const turn: Turn = { question: body.question, entityRef: entity?.ref ?? null, answer: outcome.value.answer };
  const recorded = await commands.recordAnswer(body.conversation_id, turn);
  return { state: 'ok', conversation_id: recorded.conversationId, turn: recorded.turn, answer: turn.answer, entity_ref: turn.entityRef };
}

async function messages(ctx: AppContext, question: string, earlier: Turn[], entity: string | undefined): Promise<ChatMessage[]> {
  const context = [`Live entities in the library (total and playable on the mediaserver): ${JSON.stringify(await libraryCounts(ctx.db))}`];
  if (entity) context.push(entity);
  const history = earlier.slice(-MAX_HISTORY_TURNS).flatMap((t): ChatMessage[] => [
    { role: 'user', content: clip(t.question, MAX_TURN_CHARS) },
    { role: 'assistant', content: JSON.stringify({ answer: clip(t.answer, MAX_TURN_CHARS) }) },
  ]);
  return [{ role: 'system', content: SYSTEM }, { role: 'system', content: context.join('\n') }, ...history, { role: 'user', content: question }];
}
