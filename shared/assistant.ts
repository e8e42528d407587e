import { z } from 'zod';

/**
 * The assistant's answers: always 200, with a `state`. `ok` carries the route's own fields;
 * `not_configured` means no model key is set; `failed` says why the model gave nothing usable
 * (`timeout`, `upstream_error`, `invalid_json`, `invalid_answer`) or, for the radio seed, that
 * nothing in the library matched (`no_match`).
 */
export const FAILURE_REASONS = ['timeout', 'upstream_error', 'invalid_json', 'invalid_answer', 'no_match'] as const;
export const FailureReason = z.enum(FAILURE_REASONS);
export type FailureReason = z.infer<typeof FailureReason>;

export const NotConfiguredAnswer = z.object({ state: z.literal('not_configured') });
export const FailedAnswer = z.object({ state: z.literal('failed'), reason: FailureReason, detail: z.string() });
export type FailedAnswer = z.infer<typeof FailedAnswer>;

/** A route's answer schema: its `ok` shape (and any other states it has) beside the common two. */
export function assistantAnswer<const S extends readonly [z.ZodObject<{ state: z.ZodLiteral<string> }>, ...z.ZodObject<{ state: z.ZodLiteral<string> }>[]]>(...states: S) {
  return z.discriminatedUnion('state', [...states, NotConfiguredAnswer, FailedAnswer]);
}

/** An entity an admin question is about: `artist:<id>`, `album:<id>` or `track:<id>`. */
export const EntityRef = z
  .string()
  .regex(/^(artist|album|track):[^\s:]{1,64}$/, 'an entity reference is `artist:<id>`, `album:<id>` or `track:<id>`');
export type EntityRef = z.infer<typeof EntityRef>;

export function parseEntityRef(ref: string): { kind: 'artist' | 'album' | 'track'; id: string } {
  const colon = ref.indexOf(':');
  return { kind: ref.slice(0, colon) as 'artist' | 'album' | 'track', id: ref.slice(colon + 1) };
}

/** Prompts are bounded: a text longer than `max` is cut, and says so with an ellipsis. */
export const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
