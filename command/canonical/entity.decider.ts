import { z } from 'zod';
import type { Evidence, EntityEvent, Facts, Kind, Source } from '../../shared/events/canonical.events.ts';
import type { EntityEnrichmentEvent } from '../../shared/events/enrichment.events.ts';
import { Conflict, NotFound } from '../../shared/errors.ts';
import { assertNever } from '../../shared/never.ts';
import { stableJson } from '../../shared/canonical/doc-facts.ts';

type EvidenceT = z.infer<typeof Evidence>;
const refKey = (source: string, externalId: string) => `${source}\u0000${externalId}`;

export interface EntityState {
  status: 'none' | 'active' | 'merged';
  kind: Kind | null;
  mergedInto: string | null;
  refs: Map<string, { source: Source; external_id: string }>;
  /** Last facts seen per ref: an identical observation appends nothing. */
  facts: Map<string, string>;
}

export const initialState = (): EntityState => ({ status: 'none', kind: null, mergedInto: null, refs: new Map(), facts: new Map() });

export function evolve(state: EntityState, event: EntityEvent | EntityEnrichmentEvent): EntityState {
  switch (event.type) {
    // Enrichment shares the stream; its decisions are command/enrichment/enrichment.decider.ts's.
    case 'EntityEnriched':
    case 'EnrichmentFailed':
    case 'EnrichmentRecovered':
      return state;
    case 'EntityRegistered':
      return { ...state, status: 'active', kind: event.data.kind };
    case 'RefLinked': {
      const refs = new Map(state.refs).set(refKey(event.data.source, event.data.external_id), { source: event.data.source, external_id: event.data.external_id });
      return { ...state, refs };
    }
    case 'RefUnlinked': {
      const refs = new Map(state.refs);
      refs.delete(refKey(event.data.source, event.data.external_id));
      return { ...state, refs };
    }
    case 'FactsObserved': {
      const facts = new Map(state.facts).set(refKey(event.data.source, event.data.external_id), stableJson(event.data.facts));
      return { ...state, facts };
    }
    case 'EntityAbsorbed': {
      const refs = new Map(state.refs);
      for (const r of event.data.refs) refs.set(refKey(r.source, r.external_id), r);
      return { ...state, refs };
    }
    case 'EntityMergedInto':
      return { ...state, status: 'merged', mergedInto: event.data.target_id, refs: new Map() };
    default:
      return assertNever(event);
  }
}

interface Meta {
  kind: Kind;
  id: string;
  now: string;
}

export type EntityCommand =
  | { type: 'RegisterEntity'; meta: Meta }
  | { type: 'LinkRef'; source: Source; externalId: string; evidence: EvidenceT; meta: Meta }
  | { type: 'UnlinkRef'; source: Source; externalId: string; meta: Meta }
  | { type: 'ObserveFacts'; source: Source; externalId: string; facts: Facts; meta: Meta }
  | { type: 'MergeInto'; targetId: string; meta: Meta }
  | { type: 'Absorb'; sourceId: string; refs: { source: Source; external_id: string }[]; meta: Meta };

export function decide(state: EntityState, command: EntityCommand): EntityEvent[] {
  const { kind, id, now: at } = command.meta;
  if (command.type === 'RegisterEntity') {
    if (state.status !== 'none') throw new Conflict(`${kind} ${id} already exists`);
    return [{ type: 'EntityRegistered', data: { kind, id, at } }];
  }
  if (state.status === 'none') throw new NotFound(`${kind} ${id} not found`);
  if (state.status === 'merged') throw new MergedAway(id, state.mergedInto!);
  const key = 'source' in command ? refKey(command.source, command.externalId) : '';
  switch (command.type) {
    case 'LinkRef':
      return state.refs.has(key) ? [] : [{ type: 'RefLinked', data: { kind, id, source: command.source, external_id: command.externalId, evidence: command.evidence, at } }];
    case 'UnlinkRef':
      if (!state.refs.has(key)) throw new NotFound(`${command.source} ref ${command.externalId} is not linked to ${kind} ${id}`);
      return [{ type: 'RefUnlinked', data: { kind, id, source: command.source, external_id: command.externalId, at } }];
    case 'ObserveFacts':
      // Stored facts come back from the log in another key order (schema parsing, jsonb): compare them by content.
      return state.facts.get(key) === stableJson(command.facts)
        ? []
        : [{ type: 'FactsObserved', data: { kind, id, source: command.source, external_id: command.externalId, facts: command.facts, at } }];
    case 'MergeInto':
      if (command.targetId === id) throw new Conflict('An entity cannot be merged into itself');
      return [{ type: 'EntityMergedInto', data: { kind, id, target_id: command.targetId, at } }];
    case 'Absorb':
      return [{ type: 'EntityAbsorbed', data: { kind, id, source_id: command.sourceId, refs: command.refs, at } }];
    default:
      return assertNever(command);
  }
}

/** The entity was merged away: callers follow `targetId`. */
export class MergedAway extends Conflict {
  constructor(
    readonly id: string,
    readonly targetId: string,
  ) {
    super(`${id} was merged into ${targetId}`);
  }
}
