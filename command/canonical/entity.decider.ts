import { z } from 'zod';
import type { Evidence, EntityEvent, Facts, Kind, Source } from '../../shared/events/canonical.events.ts';
import type { EntityEnrichmentEvent } from '../../shared/events/enrichment.events.ts';
import { Conflict, NotFound } from '../../shared/errors.ts';
import { assertNever } from '../../shared/never.ts';
import { stableJson } from '../../shared/canonical/doc-facts.ts';

type EvidenceT = z.infer<typeof Evidence>;
type RefT = { source: Source; external_id: string };
const refKey = (source: string, externalId: string) => `${source}\u0000${externalId}`;

/** Why a ref is linked (as the external-refs read model says), and the entity a merge took it over from. */
interface RefOrigin {
  evidence: EvidenceT;
  from: string | null;
}

export interface EntityState {
  status: 'none' | 'active' | 'merged';
  kind: Kind | null;
  mergedInto: string | null;
  refs: Map<string, RefT>;
  origins: Map<string, RefOrigin>;
  /** Last facts seen per ref: an identical observation appends nothing. */
  facts: Map<string, string>;
  /** Entities merged into this one and not unmerged since. */
  absorbed: Set<string>;
  /** The refs it held when merged away, for an unmerge to give back. */
  handedOver: Map<string, RefT & RefOrigin>;
  /** Enrichment sources that added stand-alone facts (read from no ref) on this stream. */
  enrichedSources: Set<string>;
}

export const initialState = (): EntityState => ({
  status: 'none', kind: null, mergedInto: null, refs: new Map(), origins: new Map(), facts: new Map(), absorbed: new Set(), handedOver: new Map(), enrichedSources: new Set(),
});

/** The refs the target holds because it absorbed `sourceId`; refs linked to it since the merge stay with it. */
export const refsBroughtBy = (target: EntityState, sourceId: string): RefT[] =>
  [...target.refs].filter(([key]) => target.origins.get(key)?.from === sourceId).map(([, ref]) => ref);

/** Those refs with the evidence the source had for them before the merge. */
export function refsReturning(source: EntityState, target: EntityState, sourceId: string): (RefT & { evidence: EvidenceT })[] {
  return refsBroughtBy(target, sourceId).map((ref) => ({ ...ref, evidence: source.handedOver.get(refKey(ref.source, ref.external_id))?.evidence ?? { rule: 'merge', value: null } }));
}

function without<K, V>(map: Map<K, V>, keys: K[]): Map<K, V> {
  const next = new Map(map);
  for (const key of keys) next.delete(key);
  return next;
}

export function evolve(state: EntityState, event: EntityEvent | EntityEnrichmentEvent): EntityState {
  switch (event.type) {
    // Enrichment shares the stream; its decisions are command/enrichment/enrichment.decider.ts's.
    case 'EntityEnriched':
      return event.data.ref === null ? { ...state, enrichedSources: new Set(state.enrichedSources).add(event.data.source) } : state;
    case 'EnrichmentFailed':
    case 'EnrichmentRecovered':
      return state;
    case 'EntityRegistered':
      return { ...state, status: 'active', kind: event.data.kind };
    case 'RefLinked': {
      const key = refKey(event.data.source, event.data.external_id);
      const refs = new Map(state.refs).set(key, { source: event.data.source, external_id: event.data.external_id });
      return { ...state, refs, origins: new Map(state.origins).set(key, { evidence: event.data.evidence, from: null }) };
    }
    case 'RefUnlinked': {
      const key = refKey(event.data.source, event.data.external_id);
      return { ...state, refs: without(state.refs, [key]), origins: without(state.origins, [key]) };
    }
    case 'FactsObserved': {
      const facts = new Map(state.facts).set(refKey(event.data.source, event.data.external_id), stableJson(event.data.facts));
      return { ...state, facts };
    }
    case 'EntityAbsorbed': {
      const refs = new Map(state.refs);
      const origins = new Map(state.origins);
      for (const r of event.data.refs) {
        refs.set(refKey(r.source, r.external_id), r);
        origins.set(refKey(r.source, r.external_id), { evidence: { rule: 'merge', value: event.data.source_id }, from: event.data.source_id });
      }
      return { ...state, refs, origins, absorbed: new Set(state.absorbed).add(event.data.source_id) };
    }
    case 'EntityUnabsorbed': {
      const keys = event.data.refs.map((r) => refKey(r.source, r.external_id));
      return { ...state, refs: without(state.refs, keys), origins: without(state.origins, keys), absorbed: new Set([...state.absorbed].filter((id) => id !== event.data.source_id)) };
    }
    case 'EntityMergedInto': {
      const handedOver = new Map([...state.refs].map(([key, ref]) => [key, { ...ref, ...state.origins.get(key)! }]));
      return { ...state, status: 'merged', mergedInto: event.data.target_id, refs: new Map(), origins: new Map(), handedOver };
    }
    case 'EntityUnmerged': {
      const back = event.data.refs.map((r) => [refKey(r.source, r.external_id), r] as const);
      return {
        ...state,
        status: 'active',
        mergedInto: null,
        refs: new Map(back.map(([key, r]) => [key, { source: r.source, external_id: r.external_id }])),
        origins: new Map(back.map(([key, r]) => [key, { evidence: r.evidence, from: state.handedOver.get(key)?.from ?? null }])),
        handedOver: new Map(),
      };
    }
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
  | { type: 'Absorb'; sourceId: string; refs: RefT[]; meta: Meta }
  /** On the merged-away entity; the refs and the returning ids come from the target's and the chain's streams. */
  | { type: 'Unmerge'; targetId: string; refs: (RefT & { evidence: EvidenceT })[]; returning: string[]; meta: Meta }
  | { type: 'Unabsorb'; sourceId: string; enriched: string[]; meta: Meta };

export function decide(state: EntityState, command: EntityCommand): EntityEvent[] {
  const { kind, id, now: at } = command.meta;
  if (command.type === 'RegisterEntity') {
    if (state.status !== 'none') throw new Conflict(`${kind} ${id} already exists`);
    return [{ type: 'EntityRegistered', data: { kind, id, at } }];
  }
  if (state.status === 'none') throw new NotFound(`${kind} ${id} not found`);
  if (command.type === 'Unmerge') {
    if (state.status !== 'merged' || state.mergedInto !== command.targetId) throw new NotMergedInto(id, command.targetId);
    return [{ type: 'EntityUnmerged', data: { kind, id, target_id: command.targetId, refs: command.refs, returning: command.returning, at } }];
  }
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
    case 'Unabsorb':
      if (!state.absorbed.has(command.sourceId)) throw new NotMergedInto(command.sourceId, id);
      return [{ type: 'EntityUnabsorbed', data: { kind, id, source_id: command.sourceId, refs: refsBroughtBy(state, command.sourceId), enriched: command.enriched, at } }];
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

/** An unmerge names a pair that is not merged (or no longer): 409. */
export class NotMergedInto extends Conflict {
  constructor(
    readonly sourceId: string,
    readonly targetId: string,
  ) {
    super(`${sourceId} is not merged into ${targetId}`);
  }
}
