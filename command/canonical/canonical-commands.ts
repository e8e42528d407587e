import type { AppContext } from '../../infra/context.ts';
import { aggregate } from '../../infra/eventstore/aggregate.ts';
import type { WithoutMeta } from '../../shared/commands.ts';
import type { AppendResult } from '../../infra/eventstore/event-store.ts';
import { handleCommand } from '../../infra/eventstore/command-handler.ts';
import type { EntityEvent, Evidence, Facts, Kind, RefClaimEvent, Source } from '../../shared/events/canonical.events.ts';
import { Conflict, NotFound } from '../../shared/errors.ts';
import { hashedId, newId } from '../../shared/ids.ts';
import { entityStream, refClaimStream } from '../../shared/streams.ts';
import type { z } from 'zod';
import * as entityDecider from './entity.decider.ts';
import { type EntityCommand, NotMergedInto, refsReturning } from './entity.decider.ts';
import * as refClaim from './ref-claim.ts';
import type { RefClaimCommand } from './ref-claim.ts';

export type Ref = { source: Source; external_id: string };

/** One decision of a multi-stream command: on a ref's claim stream or on an entity's stream. */
export type Step =
  | { on: 'claim'; ref: Ref; command: WithoutMeta<RefClaimCommand> }
  | { on: 'entity'; id: string; command: WithoutMeta<EntityCommand> };

/** A merge or its undo, as the steps it takes. */
export interface MergePlan {
  kind: Kind;
  /** The ends of the two ids' merge chains. */
  target: string;
  source: string;
  refs: Ref[];
  steps: Step[];
}

export type PlannedEvent = (EntityEvent | RefClaimEvent) & { stream_id: string };

/** The write side of the canonical layer: entities, ref claims, links and merges. */
export function canonicalCommands(ctx: AppContext, actor: string | null) {
  const now = () => new Date().toISOString();

  const entityCommand = (kind: Kind, id: string, command: WithoutMeta<EntityCommand>) => ({ ...command, meta: { kind, id, now: now() } }) as EntityCommand;
  const claimCommand = (kind: Kind, ref: Ref, command: WithoutMeta<RefClaimCommand>) =>
    ({ ...command, meta: { kind, source: ref.source, externalId: ref.external_id, now: now() } }) as RefClaimCommand;
  const claimStream = (kind: Kind, ref: Ref) => refClaimStream(kind, ref.source, hashedId(ref.external_id));

  function onEntity(kind: Kind, id: string, command: WithoutMeta<EntityCommand>) {
    return handleCommand<entityDecider.EntityState, EntityCommand, EntityEvent>(ctx.store, entityStream(kind, id), entityDecider, entityCommand(kind, id, command), { actor });
  }

  function onClaim(kind: Kind, ref: Ref, command: WithoutMeta<RefClaimCommand>) {
    return handleCommand<refClaim.RefClaimState, RefClaimCommand, RefClaimEvent>(ctx.store, claimStream(kind, ref), refClaim, claimCommand(kind, ref, command), { actor });
  }

  /** Runs a step of a plan: decides and appends. */
  const run = (kind: Kind, step: Step) => (step.on === 'claim' ? onClaim(kind, step.ref, step.command) : onEntity(kind, step.id, step.command));

  /** Decides a step of a plan on the stream as it stands, appending nothing: what `run` would append now. */
  async function preview(kind: Kind, step: Step): Promise<PlannedEvent[]> {
    if (step.on === 'claim') {
      const stream = claimStream(kind, step.ref);
      const { state } = await aggregate<refClaim.RefClaimState, RefClaimEvent>(ctx.store, stream, refClaim.evolve, refClaim.initialState());
      return refClaim.decide(state, claimCommand(kind, step.ref, step.command)).map((e) => ({ stream_id: stream, ...e }));
    }
    const stream = entityStream(kind, step.id);
    const { state } = await entityOf(kind, step.id);
    return entityDecider.decide(state, entityCommand(kind, step.id, step.command)).map((e) => ({ stream_id: stream, ...e }));
  }

  async function owner(kind: Kind, ref: Ref): Promise<string | null> {
    return (await aggregate<refClaim.RefClaimState, RefClaimEvent>(ctx.store, claimStream(kind, ref), refClaim.evolve, refClaim.initialState())).state.owner;
  }

  const entityOf = (kind: Kind, id: string) =>
    aggregate<entityDecider.EntityState, EntityEvent>(ctx.store, entityStream(kind, id), entityDecider.evolve, entityDecider.initialState());

  /** Follows merges in the log (not the read model) to the entity that stands now. */
  async function finalId(kind: Kind, id: string): Promise<string> {
    const seen = new Set<string>();
    let current = id;
    for (;;) {
      const { state, expected } = await entityOf(kind, current);
      if (expected === 'no_stream') throw new NotFound(`${kind} ${id} not found`);
      if (state.status !== 'merged' || seen.has(current)) return current;
      seen.add(current);
      current = state.mergedInto!;
    }
  }

  /**
   * What merging `sourceId` into `targetId` does, step by step: the refs move, the source is
   * tombstoned pointing at the target. Merging into itself, into something merged into the source,
   * or across kinds is refused.
   */
  async function mergePlan(kind: Kind, targetId: string, sourceId: string): Promise<MergePlan> {
    const target = await finalId(kind, targetId);
    const source = await finalId(kind, sourceId);
    if (target === source) throw new Conflict(targetId === sourceId ? 'An entity cannot be merged into itself' : `${sourceId} is already merged into ${targetId}`);
    const { state } = await entityOf(kind, source);
    const refs = [...state.refs.values()];
    const steps: Step[] = [
      ...refs.map((ref): Step => ({ on: 'claim', ref, command: { type: 'MoveRef', from: source, to: target } })),
      { on: 'entity', id: target, command: { type: 'Absorb', sourceId: source, refs } },
      { on: 'entity', id: source, command: { type: 'MergeInto', targetId: target } },
    ];
    return { kind, target, source, refs, steps };
  }

  /** Every id whose merge chain passes through `id` (merged into it, directly or down a chain), by the log. */
  async function mergedIntoChain(kind: Kind, id: string): Promise<string[]> {
    const found: string[] = [];
    const queue = [...(await entityOf(kind, id)).state.absorbed];
    while (queue.length > 0) {
      const next = queue.shift()!;
      if (found.includes(next) || next === id) continue;
      found.push(next);
      queue.push(...(await entityOf(kind, next)).state.absorbed);
    }
    return found;
  }

  /**
   * What undoing the merge of `sourceId` into `targetId` does: the refs it brought (and still on
   * the target) move back, it stands again, and the ids merged into it before end their chains at
   * it again. Only the last merge of a chain can be undone: a target merged away since is a 409.
   */
  async function unmergePlan(kind: Kind, targetId: string, sourceId: string): Promise<MergePlan> {
    const [source, target] = [await entityOf(kind, sourceId), await entityOf(kind, targetId)];
    if (source.expected === 'no_stream') throw new NotFound(`${kind} ${sourceId} not found`);
    if (target.expected === 'no_stream') throw new NotFound(`${kind} ${targetId} not found`);
    if (source.state.status !== 'merged' || source.state.mergedInto !== targetId) throw new NotMergedInto(sourceId, targetId);
    if (target.state.status === 'merged') throw new Conflict(`${targetId} was merged into ${target.state.mergedInto} since: undo that merge first`);
    const refs = refsReturning(source.state, target.state, sourceId);
    const returning = await mergedIntoChain(kind, sourceId);
    const enriched = [...source.state.enrichedSources].filter((s) => !target.state.enrichedSources.has(s));
    const steps: Step[] = [
      ...refs.map((ref): Step => ({ on: 'claim', ref, command: { type: 'MoveRef', from: targetId, to: sourceId } })),
      { on: 'entity', id: sourceId, command: { type: 'Unmerge', targetId, refs, returning } },
      { on: 'entity', id: targetId, command: { type: 'Unabsorb', sourceId, enriched } },
    ];
    return { kind, target: targetId, source: sourceId, refs: refs.map(({ source: s, external_id }) => ({ source: s, external_id })), steps };
  }

  /** The events a plan would append now, in order, appending nothing. */
  async function previewPlan(plan: MergePlan): Promise<PlannedEvent[]> {
    const events: PlannedEvent[] = [];
    for (const step of plan.steps) events.push(...(await preview(plan.kind, step)));
    return events;
  }

  async function runPlan(plan: MergePlan): Promise<AppendResult | undefined> {
    let last: AppendResult | undefined;
    for (const step of plan.steps) last = (await run(plan.kind, step)).result ?? last;
    return last;
  }

  return {
    owner,
    finalId,

    async register(kind: Kind): Promise<{ id: string; result: AppendResult }> {
      const id = newId();
      const handled = await onEntity(kind, id, { type: 'RegisterEntity' });
      return { id, result: handled.result! };
    },

    /** Claims the ref for the entity, then records the link; a ref owned elsewhere is a 409 naming the owner. */
    async link(kind: Kind, id: string, ref: Ref, evidence: z.infer<typeof Evidence>): Promise<AppendResult | undefined> {
      await onClaim(kind, ref, { type: 'ClaimRef', entityId: id });
      try {
        return (await onEntity(kind, id, { type: 'LinkRef', source: ref.source, externalId: ref.external_id, evidence })).result;
      } catch (error) {
        await onClaim(kind, ref, { type: 'ReleaseRef', entityId: id });
        throw error;
      }
    },

    async unlink(kind: Kind, id: string, ref: Ref): Promise<AppendResult | undefined> {
      const handled = await onEntity(kind, id, { type: 'UnlinkRef', source: ref.source, externalId: ref.external_id });
      await onClaim(kind, ref, { type: 'ReleaseRef', entityId: id });
      return handled.result;
    },

    async observe(kind: Kind, id: string, ref: Ref, facts: Facts): Promise<AppendResult | undefined> {
      return (await onEntity(kind, id, { type: 'ObserveFacts', source: ref.source, externalId: ref.external_id, facts })).result;
    },

    mergePlan,
    unmergePlan,
    previewPlan,
    runPlan,

    async merge(kind: Kind, targetId: string, sourceId: string): Promise<AppendResult | undefined> {
      return runPlan(await mergePlan(kind, targetId, sourceId));
    },

    async unmerge(kind: Kind, targetId: string, sourceId: string): Promise<AppendResult | undefined> {
      return runPlan(await unmergePlan(kind, targetId, sourceId));
    },
  };
}

export type CanonicalCommands = ReturnType<typeof canonicalCommands>;
