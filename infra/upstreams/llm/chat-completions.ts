import { z } from 'zod';

/**
 * The OpenAI-compatible chat-completions wire format (`POST {base}/chat/completions`), as hosted
 * services and local servers speak it: only the fields the assistant reads.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export const chatRequest = (model: string, messages: ChatMessage[]) => ({
  model,
  messages,
  // Servers that know it constrain decoding to one JSON object; the content is validated anyway.
  response_format: { type: 'json_object' },
  temperature: 0.2,
  stream: false,
});

export const ChatCompletion = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          /** Set instead of `content` when the model declined to answer. */
          refusal: z.string().nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
});
export type ChatCompletion = z.infer<typeof ChatCompletion>;

/** `{"error": {"message", "type", "param", "code"}}`: only the machine-readable parts are kept. */
export const ErrorEnvelope = z.object({
  error: z.object({ type: z.string().nullish(), code: z.union([z.string(), z.number()]).nullish() }),
});

/**
 * The JSON object inside an answer's content. Some local servers wrap it in a Markdown code fence
 * even when asked for a JSON object; the fence is not part of the answer.
 */
export function contentJson(content: string): unknown {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(content);
  return JSON.parse(fenced ? fenced[1]! : content);
}
