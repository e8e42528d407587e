import { setImmediate as yieldToIo } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { log } from '../logger.ts';
import type { Database } from '../db/database.ts';
import { type EventStore, type Position, START, comparePositions } from '../eventstore/event-store.ts';
import { readCheckpoints, saveCheckpoints } from './checkpoints.ts';
import { type Lane, lanesFrom, leaderOf, mergeLanes } from './lanes.ts';
import type { Projector, StoredEvent } from './projector.ts';
import { PositionWaiters } from './wait-for-position.ts';

export interface RebuildProgress {
  processed: number;
  total: number;
}

interface RebuildRequest {
  names: string[];
  total: number;
  /** The head of the log when the rebuild was asked for: done once its projectors pass it. */
  target: Position;
  onProgress: (p: RebuildProgress) => void;
  done: (events: number) => void;
  failed: (error: unknown) => void;
}

export interface RunnerOptions {
  /** Events per batch (the ceiling when `sliceMs` is set). */
  batchSize?: number;
  /**
   * Target time one batch may hold the database. PGlite is a single connection: a request waits
   * for the batch in progress, so batches are sized from the last one's duration to keep that wait
   * short while a rebuild or a long catch-up runs; read before each resize, so it can follow how
   * busy the API is. Unset on PostgreSQL, where requests have their own connections.
   */
  sliceMs?: () => number;
  /** Awaited before each batch: lets the API go first on a shared connection. */
  beforeBatch?: () => Promise<void>;
  retryMs?: number;
}

const MIN_SLICED_BATCH = 10;

interface ActiveRebuild extends RebuildRequest {
  processed: number;
}

/**
 * Runs every projector over the log. Projectors at the same position share a lane and one
 * transaction per batch (rows and checkpoints together). A rebuilt projector starts a lane of its
 * own at the start of the log, reads up to the live lane's position in turns with it, and joins it
 * there, so live read models keep up while a rebuild runs.
 */
export class ProjectionRunner {
  private lanes: Lane[] = [];
  private readonly pending: RebuildRequest[] = [];
  private active: ActiveRebuild[] = [];
  private wake = new AbortController();
  private stopped = false;
  private loop: Promise<void> | undefined;
  private readonly listeners: ((projector: string, events: StoredEvent[]) => void)[] = [];
  readonly waiters = new PositionWaiters();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: EventStore,
    readonly projectors: Projector[],
    private readonly options: RunnerOptions = {},
  ) {
    const names = new Set<string>();
    for (const p of projectors) {
      if (names.has(p.name)) throw new Error(`duplicate projector name ${p.name}`);
      names.add(p.name);
    }
  }

  /** Loads checkpoints, resets projectors whose version changed, and starts the loop. */
  async start(): Promise<void> {
    const stored = await readCheckpoints(this.db);
    const bumped = this.projectors.filter((p) => stored.get(p.name)?.version !== p.version);
    if (bumped.length > 0) {
      const known = bumped.filter((p) => stored.has(p.name)).map((p) => p.name);
      if (known.length > 0) log.info('projections: version changed, rebuilding', { projectors: known });
      await this.reset(bumped);
    }
    const positionOf = (p: Projector) => (bumped.includes(p) ? START : stored.get(p.name)!.position);
    this.lanes = lanesFrom(this.projectors, positionOf);
    this.publishPosition();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake.abort();
    await this.loop;
  }

  /** Called after each committed batch with the events a projector applied (cache invalidation). */
  onApplied(listener: (projector: string, events: StoredEvent[]) => void): void {
    this.listeners.push(listener);
  }

  /** Position of the live read models. */
  position(): Position {
    return leaderOf(this.lanes)?.position ?? START;
  }

  /** Empties the named read models and replays the log into them; resolves with the events replayed. */
  async rebuild(names: string[], onProgress: (p: RebuildProgress) => void = () => {}): Promise<number> {
    const unknown = names.filter((n) => !this.projectors.some((p) => p.name === n));
    if (unknown.length > 0) throw new Error(`unknown projectors: ${unknown.join(', ')}`);
    const [total, target] = await Promise.all([this.countEvents(), this.store.headPosition()]);
    return new Promise((done, failed) => {
      this.pending.push({ names, total, target, onProgress, done, failed });
      this.wake.abort();
    });
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      // Requests that arrive from here on abort the fresh signal and cut the next wait short.
      if (this.wake.signal.aborted) this.wake = new AbortController();
      try {
        await this.startPendingRebuilds();
        const progressed = await this.step();
        failures = 0;
        if (!progressed) await this.waitForEvents();
        else await yieldToIo();
      } catch (error) {
        failures += 1;
        const delay = Math.min(30_000, (this.options.retryMs ?? 500) * 2 ** Math.min(failures - 1, 6));
        log.error('projections: batch failed, retrying', { error: String(error), delay_ms: delay });
        await sleep(delay, this.wake.signal);
      }
    }
  }

  /** One batch for every lane; returns whether anything moved. */
  private async step(): Promise<boolean> {
    const leader = leaderOf(this.lanes);
    if (!leader) return false;
    let progressed = false;
    for (const lane of [...this.lanes]) {
      const limit = lane === leader ? undefined : leader.position;
      progressed = (await this.processBatch(lane, limit)) || progressed;
    }
    this.lanes = mergeLanes(this.lanes);
    this.settleRebuilds();
    this.publishPosition();
    return progressed;
  }

  private async processBatch(lane: Lane, upTo: Position | undefined): Promise<boolean> {
    await this.options.beforeBatch?.();
    const started = performance.now();
    let batch = await this.store.readAll({ after: lane.position, maxCount: this.batchSizeOf(lane), withDataOf: [...new Set(lane.projectors.flatMap((p) => p.handles))] });
    if (upTo) batch = batch.filter((e) => comparePositions(e.position, upTo) <= 0);
    batch = this.cutByWeight(lane, batch);
    if (batch.length === 0) return false;
    const last = batch[batch.length - 1]!.position;
    const applied: [string, StoredEvent[]][] = [];
    await this.db.transaction().execute(async (trx) => {
      for (const projector of lane.projectors) {
        const handled = batch.filter((e) => projector.handles.includes(e.type as StoredEvent['type'])) as unknown as StoredEvent[];
        if (handled.length === 0) continue;
        await projector.apply(trx, handled);
        applied.push([projector.name, handled]);
      }
      await saveCheckpoints(trx, lane.projectors.map((p) => ({ name: p.name, version: p.version, position: last })));
    });
    lane.position = last;
    this.resize(lane, batch.length, performance.now() - started);
    for (const [name, events] of applied) for (const listener of this.listeners) listener(name, events);
    for (const rebuild of this.active) if (lane.projectors.some((p) => p.name === rebuild.names[0])) rebuild.processed += batch.length;
    return true;
  }

  /** The longest prefix (at least one event) whose weight stays within the lane's batch size. */
  private cutByWeight<E extends { type: string }>(lane: Lane, batch: E[]): E[] {
    const weighed = lane.projectors.filter((p) => p.weight);
    if (weighed.length === 0) return batch;
    const budget = this.batchSizeOf(lane);
    let total = 0;
    for (let i = 0; i < batch.length; i++) {
      const event = batch[i]! as unknown as StoredEvent;
      const weights = weighed.filter((p) => p.handles.includes(event.type)).map((p) => p.weight!(event));
      total += Math.max(1, ...weights);
      if (total > budget && i > 0) return batch.slice(0, i);
    }
    return batch;
  }

  /** Batch size per lane, keyed by its first projector (lanes are rebuilt as they merge). */
  private readonly sizes = new Map<string, number>();

  private batchSizeOf(lane: Lane): number {
    return this.sizes.get(lane.projectors[0]!.name) ?? this.options.batchSize ?? 200;
  }

  /** Scales the lane's next batch towards `sliceMs`, halfway each time so one slow batch does not swing it. */
  private resize(lane: Lane, events: number, elapsedMs: number): void {
    if (!this.options.sliceMs || events < this.batchSizeOf(lane)) return;
    const ideal = (events * this.options.sliceMs()) / Math.max(elapsedMs, 0.1);
    const next = Math.round((this.batchSizeOf(lane) + ideal) / 2);
    this.sizes.set(lane.projectors[0]!.name, Math.max(MIN_SLICED_BATCH, Math.min(this.options.batchSize ?? 200, next)));
  }

  private async startPendingRebuilds(): Promise<void> {
    while (this.pending.length > 0) {
      const request = this.pending.shift()!;
      const projectors = this.projectors.filter((p) => request.names.includes(p.name));
      try {
        await this.reset(projectors);
      } catch (error) {
        request.failed(error);
        continue;
      }
      for (const lane of this.lanes) lane.projectors = lane.projectors.filter((p) => !projectors.includes(p));
      const lane: Lane = { projectors, position: START };
      this.lanes = [...this.lanes.filter((l) => l.projectors.length > 0), lane];
      this.active.push({ ...request, processed: 0 });
    }
  }

  private settleRebuilds(): void {
    for (const rebuild of [...this.active]) {
      const lane = this.lanes.find((l) => l.projectors.some((p) => p.name === rebuild.names[0]));
      rebuild.onProgress({ processed: rebuild.processed, total: rebuild.total });
      if (lane && comparePositions(lane.position, rebuild.target) >= 0) {
        this.active = this.active.filter((r) => r !== rebuild);
        rebuild.done(rebuild.processed);
      }
    }
  }

  private async reset(projectors: Projector[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const table of new Set(projectors.flatMap((p) => p.tables))) await trx.deleteFrom(table as never).execute();
      await saveCheckpoints(trx, projectors.map((p) => ({ name: p.name, version: p.version, position: START })));
    });
  }

  private async waitForEvents(): Promise<void> {
    if (this.stopped || this.wake.signal.aborted) return;
    // Only to learn that the log moved: the next batch reads the events themselves.
    const subscription = this.store.subscribeToAll({ after: this.position(), batchSize: 1, withDataOf: [] });
    const wake = this.wake.signal;
    const stopOnWake = () => void subscription.stop();
    wake.addEventListener('abort', stopOnWake, { once: true });
    try {
      for await (const _ of subscription) break;
    } finally {
      wake.removeEventListener('abort', stopOnWake);
      await subscription.stop();
    }
  }

  private publishPosition(): void {
    this.waiters.reached(this.position());
  }

  /** Progress needs a total; only the Postgres store can count cheaply. */
  private async countEvents(): Promise<number> {
    if (this.store.kind !== 'postgres') return 0;
    const row = await this.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}
