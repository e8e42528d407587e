import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../context.ts';
import { type AllSubscription, decodePosition, encodePosition, type Position } from '../eventstore/event-store.ts';
import { log } from '../logger.ts';
import { inBackground } from '../db/work-class.ts';
import type { StoredEvent } from '../projections/projector.ts';
import { unitOfWork } from '../projections/read-models.ts';
import { ProjectorWaiters } from '../projections/wait-for-position.ts';
import type { DomainEventType } from '../../shared/events/index.ts';

/**
 * A processor whose effect is outside the database (an upstream call), so it cannot share a
 * projector's transaction: it reads the log from its own checkpoint, reacts to the events it
 * handles, and moves the checkpoint after each batch. Delivery is at least once (a crash between
 * a reaction and the checkpoint replays it), so reactions must be idempotent.
 */
export interface Reactor {
  readonly name: string;
  readonly handles: readonly DomainEventType[];
  react(ctx: AppContext, event: StoredEvent): Promise<void>;
}

const RETRY_DELAYS_MS = [500, 2000];
/** Checkpoint writes for batches with nothing to do are spaced out: each is a round trip. */
const IDLE_CHECKPOINT_MS = 5000;

async function readCheckpoint(ctx: AppContext, name: string): Promise<Position | undefined> {
  const row = await ctx.db.selectFrom('reactor_checkpoints').select('position').where('name', '=', name).executeTakeFirst();
  return row ? decodePosition(row.position) : undefined;
}

async function saveCheckpoint(ctx: AppContext, name: string, position: Position): Promise<void> {
  const values = { position: encodePosition(position), updated_at: new Date() };
  await ctx.db.insertInto('reactor_checkpoints').values({ name, ...values }).onConflict((oc) => oc.column('name').doUpdateSet(values)).execute();
}

/** One reaction with bounded retries; a reaction that keeps failing is logged and passed over. */
async function reactOnce(ctx: AppContext, reactor: Reactor, event: StoredEvent, stopped: () => boolean): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      // What a reaction appends is in the read models before the reaction counts as handled.
      return await unitOfWork(ctx.readModels, () => reactor.react(ctx, event), { reactions: false });
    } catch (error) {
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined || stopped()) {
        log.error('reactor: gave up on an event', { reactor: reactor.name, type: event.type, stream: event.streamId, error: (error as Error).message });
        return;
      }
      await sleep(delay);
    }
  }
}

export interface RunningReactor {
  readonly handles: ReadonlySet<string>;
  stop(): Promise<void>;
  /** Resolves true once the reactor has handled the log up to `target`, false after the timeout. */
  waitFor(target: Position, timeoutMs: number): Promise<boolean>;
}

/**
 * Runs a reactor until stopped. A reactor seen for the first time starts at the head of the log:
 * what came before it is the business of an explicit reconcile, not of a replay.
 */
export function startReactor(ctx: AppContext, reactor: Reactor): RunningReactor {
  let subscription: AllSubscription | undefined;
  let stopped = false;
  const handles = new Set<string>(reactor.handles);
  const handled = new ProjectorWaiters([reactor.name]);
  const reached = (position: Position) => handled.update(new Map([[reactor.name, position]]));
  const loop = inBackground(async () => {
    let after = await readCheckpoint(ctx, reactor.name);
    if (!after) {
      after = await ctx.store.headPosition();
      await saveCheckpoint(ctx, reactor.name, after);
    }
    reached(after);
    if (stopped) return;
    subscription = ctx.store.subscribeToAll({ after, batchSize: 200, withDataOf: reactor.handles });
    let savedAt = Date.now();
    for await (const batch of subscription) {
      const mine = batch.filter((e) => handles.has(e.type)) as StoredEvent[];
      for (const event of mine) {
        if (stopped) return;
        await reactOnce(ctx, reactor, event, () => stopped);
      }
      const last = batch[batch.length - 1]!.position;
      if (mine.length > 0 || Date.now() - savedAt > IDLE_CHECKPOINT_MS) {
        await saveCheckpoint(ctx, reactor.name, last);
        savedAt = Date.now();
      }
      reached(last);
    }
  }).catch((error) => log.error('reactor: stopped on an error', { reactor: reactor.name, error: (error as Error).message }));
  return {
    handles,
    async stop() {
      stopped = true;
      await subscription?.stop();
      await loop;
    },
    waitFor: (target, timeoutMs) => handled.waitFor(target, timeoutMs),
  };
}
