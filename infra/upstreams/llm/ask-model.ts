import type { ZodType } from 'zod';
import type { Config } from '../../config.ts';
import { log } from '../../logger.ts';
import type { ChatMessage } from './chat-completions.ts';
import { ModelFailure, type ModelFailureReason, modelClient } from './client.ts';

/** What asking the model came to: the assistant routes turn each into a `state` of their answer. */
export type ModelOutcome<T> =
  | { state: 'ok'; value: T }
  | { state: 'not_configured' }
  | { state: 'failed'; reason: ModelFailureReason; detail: string };

/**
 * Asks the configured model for one JSON object shaped as `schema`. No key: `not_configured`,
 * without a call. Every trouble of the model (timeout, error status, invalid JSON, a value outside
 * the allowed set) is `failed` with its reason: the routes answer 200 whatever the model did.
 */
export async function askModel<T>(config: Config, messages: ChatMessage[], schema: ZodType<T>, purpose: string): Promise<ModelOutcome<T>> {
  const client = modelClient(config);
  if (!client) return { state: 'not_configured' };
  try {
    return { state: 'ok', value: await client.completeJson(messages, schema) };
  } catch (error) {
    if (!(error instanceof ModelFailure)) throw error;
    log.warn('assistant: the model gave no usable answer', { purpose, reason: error.reason, detail: error.message });
    return { state: 'failed', reason: error.reason, detail: error.message };
  }
}

/** Whether a model is configured: routes that must read before asking say `not_configured` first. */
export const modelConfigured = (config: Config): boolean => modelClient(config) !== undefined;
