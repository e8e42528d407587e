import type { Express, Request, Response } from 'express';

/**
 * The OpenAI-compatible chat-completions wire format, as hosted services and local servers (the
 * `/v1` of a local model server) speak it: `POST /v1/chat/completions` with a bearer key, the
 * `chat.completion` envelope, and the `{"error": {message, type, param, code}}` envelope on errors.
 */
export interface ChatRequestBody {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string };
  [key: string]: unknown;
}

/** What the fake answers to one request. */
export type ScriptedAnswer =
  | { content: string | ((request: ChatRequestBody) => string); delayMs?: number; finishReason?: string }
  | { refusal: string }
  | { status: number; message?: string; type?: string; code?: string | null; delayMs?: number }
  | { raw: string; status?: number; contentType?: string };

export interface ModelState {
  apiKey: string;
  queue: ScriptedAnswer[];
}

const errorBody = (message: string, type: string, param: string | null, code: string | null) => ({ error: { message, type, param, code } });

export function modelRoutes(state: ModelState) {
  return (app: Express) => {
    app.post('/v1/chat/completions', async (req: Request, res: Response) => {
      const auth = req.headers.authorization ?? '';
      if (auth !== `Bearer ${state.apiKey}`) {
        res.status(401).json(errorBody(`Incorrect API key provided: ${mask(auth.replace(/^Bearer /, ''))}.`, 'invalid_request_error', null, 'invalid_api_key'));
        return;
      }
      const problem = invalid(req.body);
      if (problem) {
        res.status(400).json(errorBody(problem.message, 'invalid_request_error', problem.param, null));
        return;
      }
      const answer = state.queue.shift() ?? { status: 500, message: 'The fake model has no scripted answer for this request.', type: 'server_error' };
      if ('delayMs' in answer && answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
      if (res.destroyed) return;
      if ('raw' in answer) {
        res.status(answer.status ?? 200).type(answer.contentType ?? 'application/json').send(answer.raw);
      } else if ('status' in answer) {
        res.status(answer.status).json(errorBody(answer.message ?? 'The server had an error while processing your request.', answer.type ?? 'server_error', null, answer.code ?? null));
      } else {
        const body = req.body as ChatRequestBody;
        const message =
          'refusal' in answer
            ? { role: 'assistant', content: null, refusal: answer.refusal }
            : { role: 'assistant', content: typeof answer.content === 'function' ? answer.content(body) : answer.content, refusal: null };
        res.json(completion(body, message, 'finishReason' in answer ? (answer.finishReason ?? 'stop') : 'stop'));
      }
    });
    app.use((_req: Request, res: Response) => {
      res.status(404).json(errorBody('Invalid URL', 'invalid_request_error', null, null));
    });
  };
}

function completion(body: ChatRequestBody, message: Record<string, unknown>, finishReason: string) {
  const promptTokens = Math.ceil(body.messages.reduce((n, m) => n + m.content.length, 0) / 4);
  const completionTokens = Math.ceil(String(message.content ?? '').length / 4);
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2, 14)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
    usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    system_fingerprint: 'fp_fake0001',
  };
}

/** What the real service refuses with a 400, so that a malformed request cannot pass the fake. */
function invalid(body: unknown): { message: string; param: string | null } | undefined {
  const b = body as Partial<ChatRequestBody> | undefined;
  if (!b || typeof b !== 'object') return { message: 'We could not parse the JSON body of your request.', param: null };
  if (typeof b.model !== 'string' || b.model === '') return { message: 'you must provide a model parameter', param: 'model' };
  if (!Array.isArray(b.messages) || b.messages.length === 0) return { message: "'messages' must be a non-empty array", param: 'messages' };
  for (const m of b.messages) {
    if (!['system', 'user', 'assistant', 'developer'].includes(m?.role) || typeof m?.content !== 'string') return { message: 'Invalid message in messages', param: 'messages' };
  }
  if (b.response_format?.type === 'json_object' && !b.messages.some((m) => /json/i.test(m.content))) {
    return { message: "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.", param: 'messages' };
  }
  return undefined;
}

const mask = (key: string) => (key.length <= 8 ? '***' : `${key.slice(0, 3)}***${key.slice(-4)}`);
