import type { ZodType } from 'zod';
import { UpstreamError, UpstreamNotFound, UpstreamTimeout } from '../../../shared/errors.ts';
import type { Config } from '../../config.ts';
import { createUpstreamClient, type UpstreamResponse } from '../http-client.ts';
import { ChatCompletion, type ChatMessage, ErrorEnvelope, chatRequest, contentJson } from './chat-completions.ts';

export const MODEL_SERVICE = 'model';
/** Statuses answered with the error envelope, read to say what went wrong (never its message: it may echo the key). */
const ERROR_STATUSES = [400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504] as const;
/** A chat completion is a few kilobytes; far more is a broken server. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** Why the model gave no usable answer: the `reason` of a `failed` state. */
export type ModelFailureReason = 'timeout' | 'upstream_error' | 'invalid_json' | 'invalid_answer';

export class ModelFailure extends Error {
  constructor(
    readonly reason: ModelFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'ModelFailure';
  }
}

export interface ModelClientOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

/**
 * One chat completion asked for a JSON object, validated with `schema`. One attempt within the
 * timeout: the caller's client waits 15 s at most, so there is no time for a retry.
 */
export function createModelClient(options: ModelClientOptions) {
  const http = createUpstreamClient({
    service: MODEL_SERVICE,
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs,
    retries: 0,
    maxBodyBytes: MAX_BODY_BYTES,
    headers: { authorization: `Bearer ${options.apiKey}` },
  });

  async function post(messages: ChatMessage[]): Promise<UpstreamResponse> {
    try {
      return await http.request('POST', '/chat/completions', { json: chatRequest(options.model, messages), allowStatuses: ERROR_STATUSES });
    } catch (error) {
      if (error instanceof UpstreamTimeout) throw new ModelFailure('timeout', `the model did not answer within ${options.timeoutMs} ms`);
      if (error instanceof UpstreamError || error instanceof UpstreamNotFound) throw new ModelFailure('upstream_error', error.message);
      throw error;
    }
  }

  return {
    async completeJson<T>(messages: ChatMessage[], schema: ZodType<T>): Promise<T> {
      const res = await post(messages);
      if (res.status >= 300) throw new ModelFailure('upstream_error', `the model server answered ${res.status}${errorCode(res)}`);
      const content = contentOf(res);
      let value: unknown;
      try {
        value = contentJson(content);
      } catch {
        throw new ModelFailure('invalid_json', 'the answer was not a JSON object');
      }
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data;
      const issue = parsed.error.issues[0];
      throw new ModelFailure('invalid_answer', `the answer did not fit: ${issue?.path.map(String).join('.') || '(root)'} ${issue?.message ?? ''}`.trim());
    },
  };
}

export type ModelClient = ReturnType<typeof createModelClient>;

function errorCode(res: UpstreamResponse): string {
  try {
    const envelope = ErrorEnvelope.safeParse(JSON.parse(res.body.toString('utf8')));
    const code = envelope.success ? (envelope.data.error.code ?? envelope.data.error.type) : undefined;
    return code ? ` (${code})` : '';
  } catch {
    return '';
  }
}

function contentOf(res: UpstreamResponse): string {
  let envelope: unknown;
  try {
    envelope = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new ModelFailure('upstream_error', 'the model server answered something other than a chat completion');
  }
  const parsed = ChatCompletion.safeParse(envelope);
  if (!parsed.success) throw new ModelFailure('upstream_error', 'the model server answered something other than a chat completion');
  const { message } = parsed.data.choices[0]!;
  if (message.content) return message.content;
  throw new ModelFailure('invalid_answer', message.refusal ? 'the model declined to answer' : 'the answer was empty');
}

const cache = new WeakMap<Config, ModelClient>();

/** The configured model's client, or undefined when no key is set (the assistant is then `not_configured`). */
export function modelClient(config: Config): ModelClient | undefined {
  if (!config.LLM_API_KEY) return undefined;
  let client = cache.get(config);
  if (!client) {
    client = createModelClient({ baseUrl: config.LLM_API_URL, apiKey: config.LLM_API_KEY, model: config.LLM_MODEL, timeoutMs: config.LLM_TIMEOUT_MS });
    cache.set(config, client);
  }
  return client;
}
