import type { EntityEvent, Facts, Kind, Source } from '../../shared/events/canonical.events.ts';
import type { EnrichmentSource, EntityEnrichmentEvent } from '../../shared/events/enrichment.events.ts';
import { enrichedKey, factsKey, refKeyOfEnriched, stableJson } from '../../shared/canonical/doc-facts.ts';
import { NotFound } from '../../shared/errors.ts';
import { assertNever } from '../../shared/never.ts';

/**
 * Enrichment decisions on an entity's stream (`artist-<id>`, …), beside the canonical decider's:
 * what each source already added (so that the same facts again append nothing) and which drains
 * have an open failure (so that a success clears only a row that exists).
 */
export interface EnrichmentState {
  status: 'none' | 'active' | 'merged';
  /** Enriched layer key (see shared/canonical/doc-facts.ts) → the layer's facts. */
  layers: Map<string, Facts>;
  failing: Set<string>;
}

export const initialState = (): EnrichmentState => ({ status: 'none', layers: new Map(), failing: new Set() });

type StreamEvent = EntityEvent | EntityEnrichmentEvent;

export function evolve(state: EnrichmentState, event: StreamEvent): EnrichmentState {
  switch (event.type) {
    case 'EntityRegistered':
      return { ...state, status: 'active' };
    case 'EntityMergedInto':
      return { ...state, status: 'merged' };
    case 'EntityUnmerged':
      return { ...state, status: 'active' };
    case 'RefUnlinked': {
      // The facts read from the ref left with it: enriching it again after a new link is news.
      const gone = factsKey(event.data.source, event.data.external_id);
      return { ...state, layers: new Map([...state.layers].filter(([key]) => refKeyOfEnriched(key) !== gone)) };
    }
    case 'EntityEnriched': {
      const { source, ref, facts } = event.data;
      const key = layerKey(source, ref);
      return { ...state, layers: new Map(state.layers).set(key, { ...state.layers.get(key), ...facts }) };
    }
    case 'EnrichmentFailed':
      return { ...state, failing: new Set(state.failing).add(event.data.source) };
    case 'EnrichmentRecovered': {
      const failing = new Set(state.failing);
      failing.delete(event.data.source);
      return { ...state, failing };
    }
    case 'RefLinked':
    case 'FactsObserved':
    case 'EntityAbsorbed':
    case 'EntityUnabsorbed':
      return state;
    default:
      return assertNever(event);
  }
}

const layerKey = (source: EnrichmentSource, ref: { source: Source; external_id: string } | null) => enrichedKey(source, ref && factsKey(ref.source, ref.external_id));

interface Meta {
  kind: Kind;
  id: string;
  now: string;
}

export type EnrichmentCommand =
  | { type: 'Enrich'; source: EnrichmentSource; ref: { source: Source; external_id: string } | null; facts: Facts; meta: Meta }
  | { type: 'RecordFailure'; source: string; error: string; meta: Meta }
  | { type: 'RecordSuccess'; source: string; meta: Meta };

/** A merged-away entity takes no enrichment: its facts live on the target now. */
export class EntityGone extends NotFound {}

export function decide(state: EnrichmentState, command: EnrichmentCommand): EntityEnrichmentEvent[] {
  const { kind, id, now: at } = command.meta;
  if (state.status === 'none') throw new NotFound(`${kind} ${id} not found`);
  if (state.status === 'merged') throw new EntityGone(`${kind} ${id} was merged away`);
  switch (command.type) {
    case 'Enrich': {
      const current = state.layers.get(layerKey(command.source, command.ref)) ?? {};
      // Stored facts come back in another key order: compare by content, as FactsObserved does.
      if (stableJson({ ...current, ...command.facts }) === stableJson(current)) return [];
      return [{ type: 'EntityEnriched', data: { kind, id, source: command.source, ref: command.ref, facts: command.facts, at } }];
    }
    case 'RecordFailure':
      return [{ type: 'EnrichmentFailed', data: { kind, id, source: command.source, error: command.error.slice(0, 1000), at } }];
    case 'RecordSuccess':
      return state.failing.has(command.source) ? [{ type: 'EnrichmentRecovered', data: { kind, id, source: command.source, at } }] : [];
    default:
      return assertNever(command);
  }
}
