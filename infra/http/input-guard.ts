import type { Request } from 'express';
import { SESSION_COOKIE } from '../auth/session.ts';
import type { Location, ValidationDetail } from './errors.ts';

/**
 * NUL (PostgreSQL text cannot hold it) and lone UTF-16 surrogates (no UTF-8 encoding exists for
 * them). With the `u` flag a well-formed pair is one code point, so only a lone half matches `\p{Cs}`.
 */
const UNSAFE_TEXT = /[\0\p{Cs}]/u;
/** The deepest a legitimate body goes is 3 levels; anything far deeper is refused before any schema walks it. */
export const MAX_BODY_DEPTH = 32;
/** One hostile body can hold thousands of bad strings: the answer names the first few. */
const MAX_PROBLEMS = 20;

type Loc = ValidationDetail['loc'];

/**
 * Every input string of a request checked once, before any schema or handler sees it: path segments
 * as decoded, query keys and values, the JSON body (keys and strings at any depth, depth bounded)
 * and the session cookie as decoded. Other headers need nothing: Node's parser refuses NUL and
 * control characters in them (400) and they are latin1, so they cannot hold a lone surrogate.
 */
export function inputProblems(req: Request): ValidationDetail[] {
  const problems: ValidationDetail[] = [];
  const sources: [Location, unknown][] = [
    ['path', req.params],
    ['query', req.query],
    ['cookie', { [SESSION_COOKIE]: req.cookies?.[SESSION_COOKIE] }],
    ['body', req.body],
  ];
  for (const [where, value] of sources) {
    walk(value, [where], 0, problems);
    if (problems.length >= MAX_PROBLEMS) return problems.slice(0, MAX_PROBLEMS);
  }
  return problems;
}

function walk(value: unknown, loc: Loc, depth: number, problems: ValidationDetail[]): void {
  if (problems.length >= MAX_PROBLEMS) return;
  if (typeof value === 'string') {
    const problem = textProblem(value);
    if (problem) problems.push({ loc, ...problem });
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (depth > MAX_BODY_DEPTH) {
    problems.push({ loc, msg: `Nested deeper than ${MAX_BODY_DEPTH} levels`, type: 'too_deep' });
    return;
  }
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value);
  for (const [key, item] of entries) {
    const keyProblem = typeof key === 'string' ? textProblem(key) : undefined;
    if (keyProblem) problems.push({ loc: [...loc, key], ...keyProblem, msg: `key ${keyProblem.msg}` });
    else walk(item, [...loc, key], depth + 1, problems);
  }
}

function textProblem(text: string): Omit<ValidationDetail, 'loc'> | undefined {
  const found = UNSAFE_TEXT.exec(text)?.[0];
  if (found === undefined) return undefined;
  return found === '\0'
    ? { msg: 'contains a NUL character', type: 'string_nul' }
    : { msg: 'contains a lone surrogate (not valid Unicode)', type: 'string_unicode' };
}
