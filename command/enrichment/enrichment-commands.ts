import type { AppContext } from '../../infra/context.ts';
import { handleCommand, toNewEvent } from '../../infra/eventstore/command-handler.ts';
import type { AppendResult } from '../../infra/eventstore/event-store.ts';
import type { WithoutMeta } from '../../shared/commands.ts';
import type { KnownErrorSource } from '../../shared/enrichment/error-sources.ts';
import type { Facts, Kind, Source } from '../../shared/events/canonical.events.ts';
import type { EnrichmentEvent, EnrichmentSource } from '../../shared/events/enrichment.events.ts';
import { messageOf } from '../../shared/errors.ts';
import { enrichmentErrorsStream, entityStream } from '../../shared/streams.ts';
import * as decider from './enrichment.decider.ts';
import type { EnrichmentCommand } from './enrichment.decider.ts';

/**
 * The write side of enrichment: facts onto an entity, and the error rows of the drains (a failure,
 * a success that clears it, an admin's clear). Every drain records through these.
 */
export function enrichmentCommands(ctx: AppContext, actor: string | null) {
  const now = () => new Date().toISOString();
  const onEntity = (kind: Kind, id: string, command: WithoutMeta<EnrichmentCommand>) =>
    handleCommand(ctx.store, entityStream(kind, id), decider, { ...command, meta: { kind, id, now: now() } } as EnrichmentCommand, { actor });

  return {
    /** Adds `facts` from `source` (read from `ref`'s record, when given); the same facts again append nothing. */
    async enrich(kind: Kind, id: string, source: EnrichmentSource, ref: { source: Source; external_id: string } | null, facts: Facts): Promise<AppendResult | undefined> {
      return (await onEntity(kind, id, { type: 'Enrich', source, ref, facts })).result;
    },

    /** Files (or refreshes) the error row `<source>:<kind>:<id>`. */
    async failed(kind: Kind, id: string, source: KnownErrorSource, error: unknown): Promise<void> {
      await unlessGone(onEntity(kind, id, { type: 'RecordFailure', source, error: messageOf(error) }));
    },

    /** The drain succeeded on the entity: its error row, if any, goes away. */
    async succeeded(kind: Kind, id: string, source: KnownErrorSource): Promise<void> {
      await unlessGone(onEntity(kind, id, { type: 'RecordSuccess', source }));
    },

    /** Clears the error rows of one source, or all of them. */
    async clearErrors(source: string | null): Promise<AppendResult> {
      const event: EnrichmentEvent = { type: 'EnrichmentErrorsCleared', data: { source, at: now() } };
      // Clears decide nothing (any number may follow each other): appended at whatever revision the stream has.
      return ctx.store.append(enrichmentErrorsStream(), [toNewEvent(event, { actor })], 'any');
    },
  };
}

/** A row about an entity merged away meanwhile has nowhere to live: the drain meets its target later. */
async function unlessGone(handled: Promise<unknown>): Promise<void> {
  try {
    await handled;
  } catch (error) {
    if (!(error instanceof decider.EntityGone)) throw error;
  }
}

export type EnrichmentCommands = ReturnType<typeof enrichmentCommands>;
