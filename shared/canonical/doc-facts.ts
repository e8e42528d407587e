import type { Facts, Source } from '../events/canonical.events.ts';
import { type ComposedDoc, composeDoc } from './compose-doc.ts';

/**
 * The per-ref facts a canonical doc is composed from, keyed `<source>|<external_id>` (source
 * names hold no '|', and jsonb keys cannot hold \u0000). The projector and the batch reconciler's
 * in-memory view change them with the same functions, so both compose the same doc.
 */
export type RefFacts = Record<string, Facts>;

export const factsKey = (source: string, externalId: string) => `${source}|${externalId}`;
export const sourceOfKey = (key: string) => key.slice(0, key.indexOf('|')) as Source;

export const withLinked = (facts: RefFacts, key: string): RefFacts => ({ [key]: {}, ...facts });
export const withObserved = (facts: RefFacts, key: string, observed: Facts): RefFacts => ({ ...facts, [key]: observed });
export function withoutRef(facts: RefFacts, key: string): RefFacts {
  const { [key]: _, ...rest } = facts;
  return rest;
}

export function composeFromFacts(facts: RefFacts): ComposedDoc {
  return composeDoc(
    Object.entries(facts).map(([key, f]) => ({ source: sourceOfKey(key), facts: f })),
    Object.keys(facts).map(sourceOfKey),
  );
}

/**
 * The key order a jsonb object comes back in (shorter keys first, then bytewise): the order the
 * projector sees when it next reads the facts, which decides ties between refs of one source.
 */
export function jsonbKeyOrder(facts: RefFacts): RefFacts {
  const bytes = (k: string) => Buffer.from(k, 'utf8');
  const keys = Object.keys(facts).sort((a, b) => {
    const [x, y] = [bytes(a), bytes(b)];
    return x.length !== y.length ? x.length - y.length : Buffer.compare(x, y);
  });
  return Object.fromEntries(keys.map((k) => [k, facts[k]!]));
}

/** JSON with object keys sorted and undefined dropped: equal facts give equal text whatever their key order. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
