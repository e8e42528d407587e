import type { EntityEvent, Facts, Source } from '../events/canonical.events.ts';
import type { EntityEnrichmentEvent } from '../events/enrichment.events.ts';
import { type ComposedDoc, composeDoc } from './compose-doc.ts';

/**
 * The per-ref facts a canonical doc is composed from, keyed `<source>|<external_id>` (source
 * names hold no '|', and jsonb keys cannot hold \u0000). The projector and the batch reconciler's
 * in-memory view change them with the same functions, so both compose the same doc.
 *
 * Enriched facts (EntityEnriched) sit beside them under `+<enrichment source>` when they stand
 * alone, or `+<enrichment source>|<ref key>` when they were read from a ref's record: a ref key
 * never starts with '+', and unlinking the ref drops the facts read from it.
 */
export type RefFacts = Record<string, Facts>;

export const factsKey = (source: string, externalId: string) => `${source}|${externalId}`;
const ENRICHED = '+';
export const isEnrichedKey = (key: string) => key.startsWith(ENRICHED);
/** The source whose priority a key's facts have: the ref's source, or the enrichment's. */
export function sourceOfKey(key: string): Source {
  const bar = key.indexOf('|');
  return (isEnrichedKey(key) ? key.slice(1, bar < 0 ? undefined : bar) : key.slice(0, bar)) as Source;
}
export const enrichedKey = (source: string, refKey: string | null) => (refKey === null ? `${ENRICHED}${source}` : `${ENRICHED}${source}|${refKey}`);
/** The ref key an enriched layer was read from, or null. */
export function refKeyOfEnriched(key: string): string | null {
  const bar = key.indexOf('|');
  return isEnrichedKey(key) && bar >= 0 ? key.slice(bar + 1) : null;
}

export const withLinked = (facts: RefFacts, key: string): RefFacts => ({ [key]: {}, ...facts });
export const withObserved = (facts: RefFacts, key: string, observed: Facts): RefFacts => ({ ...facts, [key]: observed });
/** Enriched facts add to the layer field by field: a field named again replaces its value. */
export const withEnriched = (facts: RefFacts, key: string, enriched: Facts): RefFacts => ({ ...facts, [key]: { ...facts[key], ...enriched } });
export function withoutRef(facts: RefFacts, key: string): RefFacts {
  const { [key]: _, ...rest } = facts;
  return Object.fromEntries(Object.entries(rest).filter(([k]) => refKeyOfEnriched(k) !== key));
}

/** Within one source, what an enrichment read afresh wins over what its refs reported when observed. */
export function composeFromFacts(facts: RefFacts): ComposedDoc {
  const entries = Object.entries(facts);
  const ordered = [...entries.filter(([key]) => isEnrichedKey(key)), ...entries.filter(([key]) => !isEnrichedKey(key))];
  return composeDoc(
    ordered.map(([key, f]) => ({ source: sourceOfKey(key), facts: f })),
    Object.keys(facts).filter((key) => !isEnrichedKey(key)).map(sourceOfKey),
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

/**
 * The target's facts once it absorbs `refKeys` from the source: the moving refs' facts, the
 * enriched layers read from them and the source's stand-alone ones (the target's own win where both
 * have a layer). The projector applies it and a merge preview predicts with it.
 */
export function withAbsorbed(target: RefFacts, source: RefFacts | undefined, refKeys: string[]): RefFacts {
  const moved = Object.fromEntries(refKeys.map((key) => [key, source?.[key] ?? {}]));
  const movedRefs = new Set(refKeys);
  const enriched = Object.fromEntries(
    Object.entries(source ?? {}).filter(([key]) => {
      if (!isEnrichedKey(key)) return false;
      const ref = refKeyOfEnriched(key);
      return ref === null || movedRefs.has(ref);
    }),
  );
  return { ...moved, ...enriched, ...target };
}

/** The target's facts once an unmerge takes back `refKeys`, the layers read from them and the stand-alone layers of `enriched` sources. */
export function withUnabsorbed(target: RefFacts, refKeys: string[], enriched: string[]): RefFacts {
  const gone = new Set([...refKeys, ...enriched.map((source) => enrichedKey(source, null))]);
  return Object.fromEntries(Object.entries(target).filter(([key]) => !gone.has(key) && !gone.has(refKeyOfEnriched(key) ?? '')));
}

/**
 * The source's facts once an unmerge gives it back `refKeys`: their facts and layers as the target
 * holds them now, and the source's own stand-alone layers (kept on its tombstone).
 */
export function withGivenBack(source: RefFacts, target: RefFacts, refKeys: string[]): RefFacts {
  const back = new Set(refKeys);
  const own = Object.entries(source).filter(([key]) => isEnrichedKey(key) && refKeyOfEnriched(key) === null);
  const fromTarget = Object.entries(target).filter(([key]) => back.has(key) || back.has(refKeyOfEnriched(key) ?? ''));
  return Object.fromEntries([...refKeys.map((key) => [key, {}] as const), ...own, ...fromTarget]);
}

/** Events that change one doc's facts only (no other entity involved). */
export type SingleDocEvent =
  | Extract<EntityEvent, { type: 'RefLinked' | 'RefUnlinked' | 'FactsObserved' }>
  | Extract<EntityEnrichmentEvent, { type: 'EntityEnriched' }>;

/** One such event folded into the facts: the projector's runs and the as-of reads share it. */
export function foldFacts(facts: RefFacts, event: SingleDocEvent): RefFacts {
  if (event.type === 'EntityEnriched') {
    const { source, ref, facts: enriched } = event.data;
    return withEnriched(facts, enrichedKey(source, ref && factsKey(ref.source, ref.external_id)), enriched);
  }
  const key = factsKey(event.data.source, event.data.external_id);
  if (event.type === 'RefLinked') return withLinked(facts, key);
  return event.type === 'RefUnlinked' ? withoutRef(facts, key) : withObserved(facts, key, event.data.facts);
}
