import fc from 'fast-check';
import { type Field, type WireValue, boundsOf, kindOf } from './openapi-walk.ts';

/** `{a: {a: … 'leaf'}}`, `depth` levels deep. */
export function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

type Hostile = [label: string, value: WireValue][];

const url = (list: [string, string][]): Hostile => list.map(([label, text]) => [label, { url: text }]);
const json = (list: [string, unknown][]): Hostile => list.map(([label, value]) => [label, { json: value }]);

/**
 * Hostile path segments and query values, percent-encoded as they go on the wire. A text parameter
 * takes `-1` as text, and an integer parameter refuses any text alike, so each kind gets its own.
 */
const URL_TEXT = url([
  ['NUL', 'a%00b'],
  ['a lone surrogate as UTF-8 bytes', '%ED%A0%80'],
  ['an RTL override', '%E2%80%AEevil'],
  ['10,000 characters', 'x'.repeat(10_000)],
  ['../', '..%2F..%2Fetc'],
  ['%2f', 'a%2fb'],
  ['empty', ''],
]);
const URL_INTEGER = url([
  ['NUL', '1%00'],
  ['-1', '-1'],
  ['2^63', '9223372036854775808'],
  ['a fraction', '1.5'],
  ['text', 'NaN'],
]);
const REPEATED: Hostile = [['a repeated parameter', { repeated: ['1', '2'] }]];

/** Hostile JSON values for a body field of each kind, and for the whole body or a nested object. */
const JSON_TEXT = json([
  ['NUL', 'a\u0000b'],
  ['a lone high surrogate', '\ud800'],
  ['a lone low surrogate', 'x\udc00'],
  ['an RTL override', '\u202eevil'],
  ['10,000 characters', 'x'.repeat(10_000)],
  ['../', '../../etc/passwd'],
  ['%2f', 'a%2fb'],
  ['empty', ''],
  ['a number', 2 ** 63],
  ['null', null],
]);
const JSON_INTEGER = json([
  ['-1', -1],
  ['2^63', 2 ** 63],
  ['-2^63', -(2 ** 63)],
  ['a fraction', 1.5],
  ['text', '12'],
  ['null', null],
]);
const JSON_STRUCTURE = json([
  ['NUL', 'a\u0000b'],
  ['null', null],
  ['2^63', 2 ** 63],
  ['an array', []],
  ['deep nesting', nested(200)],
  ['NUL in a key', { 'a\u0000': 1 }],
]);

/** The hostile values for one field, and for an integer also both ends of its documented range. */
export function hostileValues(field: Field): Hostile {
  const kind = kindOf(field);
  const ends: Hostile = boundsOf(field).map((n) => [`${n} (an end of its range)`, field.in === 'body' ? { json: n } : { url: String(n) }]);
  if (field.in === 'path') return kind === 'integer' ? [...URL_INTEGER, ...ends] : URL_TEXT;
  if (field.in === 'query') return [...REPEATED, ...(kind === 'integer' ? [...URL_INTEGER, ...ends] : URL_TEXT)];
  return kind === 'text' ? JSON_TEXT : kind === 'integer' ? [...JSON_INTEGER, ...ends] : JSON_STRUCTURE;
}

/** Any UTF-16 code units, NUL and lone surrogates included (`unit: 'binary'` takes seconds to build). */
const anyText = fc.string({ unit: fc.nat({ max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 40 });

/** Any string as UTF-8 percent escapes (a lone surrogate becomes U+FFFD, as a browser would send it). */
const percentEncoded = (text: string) => [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
const values = (list: Hostile[]) => list.flat().map(([, v]) => v);

/** For the fast-check runs: a hostile value, or anything at all of the right shape for the wire. */
export const urlValue: fc.Arbitrary<WireValue> = fc.oneof(
  fc.constantFrom(...values([URL_TEXT, URL_INTEGER, REPEATED])),
  anyText.map((s) => ({ url: percentEncoded(s) })),
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map((n) => ({ url: String(n) })),
);

export const jsonValue: fc.Arbitrary<WireValue> = fc.oneof(
  fc.constantFrom(...values([JSON_TEXT, JSON_INTEGER, JSON_STRUCTURE])),
  anyText.map((s) => ({ json: s })),
  fc.oneof(fc.integer(), fc.double(), fc.maxSafeInteger()).map((n) => ({ json: n })),
  fc.jsonValue({ maxDepth: 3 }).map((v) => ({ json: v })),
);
