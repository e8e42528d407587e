import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { type Position, type RecordedEvent, encodePosition } from '../eventstore/event-store.ts';
import { log } from '../logger.ts';
import { type Located, locateFailure } from './apply-batch.ts';
import { type Stall, saveCheckpoints, saveStall } from './checkpoints.ts';
import { messageOf } from '../../shared/errors.ts';
import type { Projector } from './projector.ts';
import type { Shadow } from './shadow.ts';

export interface Stalled {
  projector: Projector;
  /** The last event it applied. */
  position: Position;
  stall: Stall;
}

/** Projectors stopped on an event they keep failing on; skipped until a restart, rebuild or version bump. */
export class Stalls {
  readonly stalled = new Map<string, Stalled>();
  /** Stalls recorded before this start: a projector stalling again on the same event keeps its `since`. */
  private readonly earlier = new Map<string, Stall>();

  remember(name: string, stall: Stall): void {
    this.earlier.set(name, stall);
  }

  /** A rebuilt or bumped projector starts afresh. */
  forget(names: string[]): void {
    for (const name of names) {
      this.stalled.delete(name);
      this.earlier.delete(name);
    }
  }

  /**
   * Applies `batch` one event at a time up to the one the projector fails on, and records it stalled
   * there (checkpoint and stall in one transaction). When every event applies (the failure passed),
   * the checkpoint just moves on, `state` as given.
   */
  async stop(db: Kysely<Database>, projector: Projector, batch: RecordedEvent[], from: Position, state: 'live' | 'rebuilding', shadow?: Shadow): Promise<Located & { stall?: Stall }> {
    let stall: Stall | undefined;
    const located = await locateFailure(
      db,
      projector,
      batch,
      from,
      async (trx, { position, culprit }) => {
        const checkpoint = { name: projector.name, version: projector.version, position };
        if (!culprit) return saveCheckpoints(trx, [{ ...checkpoint, state }]);
        stall = this.stallOn(projector.name, culprit.event, culprit.error);
        await saveStall(trx, checkpoint, stall);
      },
      shadow,
    );
    if (stall) {
      this.stalled.set(projector.name, { projector, position: located.position, stall });
      log.error('projections: projector stalled on an event; restart, or bump its version, once fixed', {
        projector: projector.name,
        position: encodePosition(located.position),
        event_id: stall.eventId,
        stream: stall.stream,
        type: stall.type,
        error: stall.error,
      });
    }
    return { ...located, stall };
  }

  private stallOn(name: string, event: RecordedEvent, error: unknown): Stall {
    const earlier = this.earlier.get(name);
    const since = earlier?.eventId === event.id ? earlier.since : new Date();
    return { eventPosition: event.position, eventId: event.id, stream: event.streamId, type: event.type, error: messageOf(error), since };
  }
}
