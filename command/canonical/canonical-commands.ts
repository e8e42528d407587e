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
import type { EntityCommand } from './entity.decider.ts';
import * as refClaim from './ref-claim.ts';
import type { RefClaimCommand } from './ref-claim.ts';

export type Ref = { source: Source; external_id: string };

/** The write side of the canonical layer: entities, ref claims, links and merges. */
export function canonicalCommands(ctx: AppContext, actor: string | null) {
  const now = () => new Date().toISOString();

  function onEntity(kind: Kind, id: string, command: WithoutMeta<EntityCommand>) {
    return handleCommand<entityDecider.EntityState, EntityCommand, EntityEvent>(
      ctx.store, entityStream(kind, id), entityDecider, { ...command, meta: { kind, id, now: now() } } as EntityCommand, { actor },
    );
  }

  function onClaim(kind: Kind, ref: Ref, command: WithoutMeta<RefClaimCommand>) {
    const stream = refClaimStream(kind, ref.source, hashedId(ref.external_id));
    return handleCommand<refClaim.RefClaimState, RefClaimCommand, RefClaimEvent>(
      ctx.store, stream, refClaim, { ...command, meta: { kind, source: ref.source, externalId: ref.external_id, now: now() } } as RefClaimCommand, { actor },
    );
  }

  async function owner(kind: Kind, ref: Ref): Promise<string | null> {
    return (await aggregate<refClaim.RefClaimState, RefClaimEvent>(ctx.store, refClaimStream(kind, ref.source, hashedId(ref.external_id)), refClaim.evolve, refClaim.initialState())).state.owner;
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

    /**
     * Merges `sourceId` into `targetId`: the refs move, the source is tombstoned pointing at the
     * target. Merging into itself, into something merged into the source, or across kinds is refused.
     */
    async merge(kind: Kind, targetId: string, sourceId: string): Promise<AppendResult | undefined> {
      const target = await finalId(kind, targetId);
      const source = await finalId(kind, sourceId);
      if (target === source) throw new Conflict(targetId === sourceId ? 'An entity cannot be merged into itself' : `${sourceId} is already merged into ${targetId}`);
      const { state } = await entityOf(kind, source);
      const refs = [...state.refs.values()];
      for (const ref of refs) await onClaim(kind, ref, { type: 'MoveRef', from: source, to: target });
      await onEntity(kind, target, { type: 'Absorb', sourceId: source, refs });
      return (await onEntity(kind, source, { type: 'MergeInto', targetId: target })).result;
    },
  };
}

export type CanonicalCommands = ReturnType<typeof canonicalCommands>;
