import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../context.ts';
import { type AllSubscription, decodePosition, encodePosition, type Position } from '../eventstore/event-store.ts';
import { log } from '../logger.ts';
import { inBackground } from '../db/work-class.ts';
import { type Ownership, lockOwnership } from '../db/lock-ownership.ts';
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

/** Another process moved the reactor's checkpoint: it runs there now. */
class CheckpointMoved extends Error {}

/** Moves the checkpoint from `expected` to `position` (compare-and-set): two owners never both move it. */
async function moveCheckpoint(ctx: AppContext, name: string, expected: Position, position: Position): Promise<void> {
  const result = await ctx.db
    .updateTable('reactor_checkpoints')
    .set({ position: encodePosition(position), updated_at: new Date() })
    .where('name', '=', name)
    .where('position', '=', encodePosition(expected))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new CheckpointMoved(`reactor ${name}: its checkpoint moved under it`);
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
 * what came before it is the business of an explicit reconcile, not of a replay. `moved` is called
 * when another process moved its checkpoint (this one has stopped).
 */
export function startReactor(ctx: AppContext, reactor: Reactor, moved: () => void = () => {}): RunningReactor {
  let subscription: AllSubscription | undefined;
  let stopped = false;
  const handles = new Set<string>(reactor.handles);
  const handled = new ProjectorWaiters([reactor.name]);
  const reached = (position: Position) => handled.update(new Map([[reactor.name, position]]));
  const loop = inBackground(async () => {
    const stored = await readCheckpoint(ctx, reactor.name);
    let after = stored ?? (await ctx.store.headPosition());
    if (!stored) await saveCheckpoint(ctx, reactor.name, after);
    reached(after);
    if (stopped) return;
    let savedAt = Date.now();
    const moveTo = async (position: Position, acted: boolean) => {
      if (acted || Date.now() - savedAt > IDLE_CHECKPOINT_MS) {
        await moveCheckpoint(ctx, reactor.name, after, position);
        after = position;
        savedAt = Date.now();
      }
      reached(position);
    };
    // Woken by appends of what it handles only (it reads past the others on its next poll): a read
    // on every append would queue ahead of the projections' read that the writer waits for. Only
    // what it handles is read (where the store can filter: the others are most of a busy log, a
    // bulk import's thousands of events); `passed` says how far it read past the others.
    subscription = ctx.store.subscribeToAll({
      after,
      batchSize: 200,
      withDataOf: reactor.handles,
      wakeFor: reactor.handles,
      onlyTypes: reactor.handles,
      passed: (position) => moveTo(position, false),
    });
    for await (const batch of subscription) {
      const mine = batch.filter((e) => handles.has(e.type)) as StoredEvent[];
      for (const event of mine) {
        if (stopped) return;
        await reactOnce(ctx, reactor, event, () => stopped);
      }
      await moveTo(batch[batch.length - 1]!.position, mine.length > 0);
    }
  }).catch((error) => {
    log.error('reactor: stopped on an error', { reactor: reactor.name, error: (error as Error).message });
    if (error instanceof CheckpointMoved) moved();
  });
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

/**
 * On PostgreSQL a reactor runs in one worker at a time: the holder of its lock; the others wait and
 * take over when that one's connection ends. `running` holds it while it runs here.
 */
export function reactorOwnership(connectionString: string, ctx: AppContext, reactor: Reactor, running: Set<RunningReactor>): Ownership {
  let current: RunningReactor | undefined;
  const ownership: Ownership = lockOwnership(connectionString, `reactor ${reactor.name}`, {
    async start() {
      current = startReactor(ctx, reactor, () => ownership.lost());
      running.add(current);
    },
    async stop() {
      if (!current) return;
      running.delete(current);
      await current.stop();
      current = undefined;
    },
  });
  return ownership;
}
