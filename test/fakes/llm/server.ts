import { type Fake, type RecordedRequest, startFake } from '../harness.ts';
import { type ChatRequestBody, type ModelState, type ScriptedAnswer, modelRoutes } from './routes.ts';

export type { ChatRequestBody, ScriptedAnswer } from './routes.ts';

/**
 * A loopback OpenAI-compatible model server. Tests script one answer per request (content, a
 * function of the request, an error status, a raw body, a delay); every request is recorded, so a
 * test reads the prompts the service sent.
 */
export interface ModelFake extends Fake {
  readonly apiKey: string;
  /** LLM_API_URL, LLM_API_KEY and LLM_MODEL pointing at this fake. */
  env(): Record<string, string>;
  /** The next requests, one per entry, get these answers; an unscripted request gets a 500. */
  answerNext(...answers: ScriptedAnswer[]): void;
  /** The chat requests received, oldest first. */
  chats(): ChatRequestBody[];
  /** Every message of every request, as one text per request (what a prompt carried). */
  prompts(): string[];
  completionRequests(): RecordedRequest[];
  clear(): void;
}

/** An answer whose content is this value as JSON. */
export const json = (value: unknown, delayMs?: number): ScriptedAnswer => ({ content: JSON.stringify(value), delayMs });

export async function startModelFake(apiKey = 'sk-test-model-key-0123456789'): Promise<ModelFake> {
  const state: ModelState = { apiKey, queue: [] };
  const fake = await startFake(modelRoutes(state));
  const completionRequests = () => fake.requests.filter((r) => r.path === '/v1/chat/completions');
  return {
    ...fake,
    apiKey,
    env: () => ({ LLM_API_URL: `${fake.url}/v1`, LLM_API_KEY: apiKey, LLM_MODEL: 'fake-model-1' }),
    answerNext: (...answers) => void state.queue.push(...answers),
    chats: () => completionRequests().map((r) => r.body as ChatRequestBody),
    prompts: () => completionRequests().map((r) => r.rawBody),
    completionRequests,
    clear() {
      fake.requests.splice(0);
      state.queue.splice(0);
    },
  };
}
