import { setImmediate as yieldToIo } from 'node:timers/promises';
import type { Kysely, Transaction } from 'kysely';
import { messageOf } from '../../shared/errors.ts';
import { log } from '../logger.ts';
import type { Database } from '../db/database.ts';
import { inBackground } from '../db/work-class.ts';
import { type EventStore, type Position, type RecordedEvent, START, comparePositions } from '../eventstore/event-store.ts';
import { type BatchOutcome, applyBatch } from './apply-batch.ts';
import { BatchSizer } from './batch-sizer.ts';
import { CheckpointMoved, readCheckpoints, saveCheckpoints } from './checkpoints.ts';
import { type Lane, lanesAtStart, leaderOf, mergeLanes, promoteLeader } from './lanes.ts';
import { type Shadow, createShadow, dropLeftoverShadows, dropShadow, dropTables, swapIn } from './shadow.ts';
import { type Projector, type StoredEvent, projectorsHandling } from './projector.ts';
import { RebuildRequests, type RebuildProgress } from './rebuild-requests.ts';
import { type RunnerOptions, backoff, maxAttempts } from './runner-options.ts';
import { type ProjectorStatus, statusOf } from './status.ts';
import { Stalls } from './stalls.ts';
import { waitForLog } from './wait-for-log.ts';
import { ProjectorWaiters } from './wait-for-position.ts';

export type { RebuildProgress, RunnerOptions };

const IDLE_CHECKPOINT_MS = 1000;
/**
 * Runs every projector over the log. Projectors at the same position share a lane and one
 * transaction per batch (rows and checkpoints together), each applying in a savepoint of its own. A
 * projector that throws is rolled back alone and split out at its old position: it retries with
 * backoff on its own timer, then stalls on the exact event it fails on, while the others keep their
 * pace. A rebuilt projector starts a lane of its own at the start of the log, reads up to the live
 * lane's position in turns with it, and joins it there, so live read models keep up while it runs.
 */
export class ProjectionRunner {
  private lanes: Lane[] = [];
  private readonly stalls = new Stalls();
  private readonly sizer: BatchSizer;
  private readonly rebuilds: RebuildRequests;
  private wake = new AbortController();
  private stopped = false;
  private loop: Promise<void> | undefined;
  private readonly listeners: ((projector: string, events: StoredEvent[]) => void)[] = [];
  /** When the last step began: failing lanes due by then had their turn. */
  private steppedAt = 0;
  private idleCheckpointedAt = 0;
  /** A batch left idle projectors' checkpoints behind: written when the log runs dry (others poll them). */
  private idleBehind = false;
  /** The last step left events to read at once (a batch as long as its size; a rebuild behind the live lane). */
  private moreToRead = false;
  readonly waiters: ProjectorWaiters;

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
    this.waiters = new ProjectorWaiters([...names], (byRequest) => {
      // A batch gathering more events stops gathering: someone waits for what is there.
      this.wake.abort();
      if (byRequest) this.options.requestWaits?.();
    });
    this.sizer = new BatchSizer(options);
    this.rebuilds = new RebuildRequests(db, store, projectors, () => this.wake.abort());
  }

  /**
   * Loads checkpoints, resets projectors whose version changed, and starts the loop. A projector
   * stalled before gets one more attempt (a fixed or upgraded projector carries on).
   */
  async start(): Promise<void> {
    // Started again after a stop when this process owns the projections once more (docs/deploy.md).
    this.stopped = false;
    this.wake = new AbortController();
    await dropLeftoverShadows(this.db);
    const stored = await readCheckpoints(this.db);
    const bumped = this.projectors.filter((p) => stored.get(p.name)?.version !== p.version);
    if (bumped.length > 0) {
      const known = bumped.filter((p) => stored.has(p.name)).map((p) => p.name);
      if (known.length > 0) log.info('projections: version changed, rebuilding', { projectors: known });
      await this.reset(bumped);
    }
    const { lanes, stalls } = lanesAtStart(this.projectors, (p) => (bumped.includes(p) ? undefined : stored.get(p.name)), maxAttempts(this.options));
    for (const [name, stall] of stalls) this.stalls.remember(name, stall);
    this.lanes = lanes;
    await this.joinLanes();
    this.publishProgress();
    this.loop = inBackground(() => this.run());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake.abort();
    await this.loop;
    this.loop = undefined;
  }

  /** Whether this process runs the projections now (a second projector process waits for the lease). */
  get running(): boolean {
    return this.loop !== undefined && !this.stopped;
  }

  /** Called after each committed batch with the events a projector applied (cache invalidation). */
  onApplied(listener: (projector: string, events: StoredEvent[]) => void): void {
    this.listeners.push(listener);
  }

  /** Each projector's state and position, for readiness and operators. */
  status(): ProjectorStatus[] {
    return statusOf(this.projectors, this.lanes, this.stalls.stalled);
  }

  /**
   * Read-your-writes: resolves true once every projector that reads one of `types` (all of them when
   * absent) has passed `target`, false after the timeout. Stalled projectors and rebuilds never hold a
   * writer back.
   */
  waitFor(target: Position, types: ReadonlySet<string> | undefined, timeoutMs: number): Promise<boolean> {
    return this.waiters.waitFor(target, timeoutMs, projectorsHandling(this.projectors, types));
  }

  /**
   * Replays the log into copies of the named read models and swaps them in once caught up; resolves
   * with the events replayed. Until then the previous read models serve; `signal` cancels (rejects,
   * and the copies are dropped).
   */
  rebuild(names: string[], onProgress: (p: RebuildProgress) => void = () => {}, signal?: AbortSignal): Promise<number> {
    return this.rebuilds.request(names, onProgress, signal);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      // Requests that arrive from here on abort the fresh signal and cut the next wait short.
      if (this.wake.signal.aborted) this.wake = new AbortController();
      try {
        await this.abandonRebuilds();
        await this.startPendingRebuilds();
        const progressed = await this.step();
        failures = 0;
        if (!progressed && this.idleBehind) await this.checkpointIdle();
        if (!progressed) await waitForLog(this.store, this.lanes, this.steppedAt, this.wake.signal);
        else if (!this.moreToRead && this.options.gatherMs) await this.gather(this.options.gatherMs);
        else await yieldToIo();
      } catch (error) {
        if (error instanceof CheckpointMoved) {
          // Another process owns these projectors now: this one stops and waits for the lease again.
          log.error('projections: stopping, another process moved the checkpoints', { error: error.message });
          this.stopped = true;
          this.options.lostOwnership?.();
          return;
        }
        // Not a projector's failure (those are handled per projector): the database or the log.
        failures += 1;
        const delay = backoff(this.options, failures);
        log.error('projections: batch failed, retrying', { error: messageOf(error), delay_ms: delay });
        await sleep(delay, this.wake.signal);
      }
    }
  }

  /** One batch for every lane whose turn it is; returns whether anything moved. */
  private async step(): Promise<boolean> {
    const leader = leaderOf(this.lanes);
    if (this.lanes.length === 0) return false;
    let progressed = false;
    this.steppedAt = Date.now();
    this.moreToRead = this.lanes.some((l) => l.rebuilding);
    for (const lane of [...this.lanes]) {
      if (lane.failure && lane.failure.retryAt > this.steppedAt) continue;
      const limit = lane === leader ? undefined : leader?.position;
      progressed = (await this.processBatch(lane, limit)) || progressed;
    }
    await this.joinLanes();
    this.rebuilds.settle(this.lanes, this.stalls.stalled);
    this.publishProgress();
    return progressed;
  }

  /** Merges lanes that met; a rebuild that joined the live read models is recorded live at once. */
  private async joinLanes(): Promise<void> {
    const rebuilding = this.lanes.filter((l) => l.rebuilding).flatMap((l) => l.projectors);
    this.lanes = mergeLanes(this.lanes);
    promoteLeader(this.lanes);
    const joined = this.lanes.filter((l) => !l.rebuilding && !l.failure).flatMap((l) => l.projectors.filter((p) => rebuilding.includes(p)).map((p) => ({ p, l })));
    await saveCheckpoints(this.db, joined.map(({ p, l }) => ({ name: p.name, version: p.version, position: l.position, state: 'live' })));
  }

  private async processBatch(lane: Lane, upTo: Position | undefined): Promise<boolean> {
    await this.options.beforeBatch?.();
    const started = performance.now();
    const batch = await this.readBatch(lane, upTo);
    if (batch.length === 0) {
      // A shadow with nothing left to read stands where the live read models stand (or at the head).
      if (lane.shadow) {
        await this.db.transaction().execute((trx) => this.swap(trx, lane, lane.projectors, lane.position));
        this.swapped(lane);
      }
      return false;
    }
    const from = lane.position;
    const last = batch[batch.length - 1]!.position;
    const earlier = lane.failure;
    const shadow = lane.shadow;
    // A rebuild's batch that reaches the live read models swaps its tables in, in the same transaction.
    const joins = shadow && upTo && comparePositions(last, upTo) >= 0;
    const into = shadow && { shadow, then: joins ? (trx: Transaction<Database>, applied: Projector[]) => this.swap(trx, lane, applied, last) : undefined };
    // The checkpoints of projectors with nothing in the batch move at most once a second: a restart
    // re-reads a little more for them, and each batch writes a few rows instead of one per projector.
    const idleToo = performance.now() - this.idleCheckpointedAt >= IDLE_CHECKPOINT_MS;
    const outcome = await applyBatch(this.db, lane.projectors, batch, { position: last, state: lane.rebuilding && upTo ? 'rebuilding' : 'live', from }, idleToo, into || undefined);
    if (idleToo) this.idleCheckpointedAt = performance.now();
    this.idleBehind ||= !idleToo;
    lane.projectors = lane.projectors.filter((p) => !outcome.failed.some(([failed]) => failed === p));
    lane.position = last;
    if (joins) this.swapped(lane);
    if (earlier && outcome.failed.length === 0) {
      lane.failure = undefined;
      log.info('projections: projector recovered', { projectors: lane.projectors.map((p) => p.name), attempts: earlier.attempts });
    }
    if (lane.projectors.length > 0) this.sizer.resize(lane, batch.length, performance.now() - started);
    this.notify(outcome.applied);
    this.rebuilds.count(lane, batch.length);
    const attempts = (earlier?.attempts ?? 0) + 1;
    const failing = outcome.failed.map(([projector, error]) => this.retryAlone(projector, { position: from, rebuilding: lane.rebuilding || Boolean(shadow), shadow }, attempts, error));
    for (const split of failing) if (attempts >= maxAttempts(this.options)) await this.stall(split, upTo);
    return lane.projectors.length > 0;
  }

  /** The lane's next batch: after its position, up to `upTo`, within its size and weight. */
  private async readBatch(lane: Lane, upTo: Position | undefined): Promise<RecordedEvent[]> {
    const withDataOf = [...new Set(lane.projectors.flatMap((p) => p.readsDataOf ?? p.handles))];
    const maxCount = this.sizer.sizeOf(lane);
    let batch = await this.store.readAll({ after: lane.position, maxCount, withDataOf });
    this.moreToRead ||= batch.length === maxCount;
    if (upTo) batch = batch.filter((e) => comparePositions(e.position, upTo) <= 0);
    const weighed = this.sizer.cutByWeight(lane, batch);
    this.moreToRead ||= weighed.length < batch.length;
    return weighed;
  }

  /**
   * The last step read every lane up to the head of the log. A writer appending in parts (a bulk import's
   * reconcile cuts its appends into holds of ~50 ms) would be chased part by part, each batch paying
   * its fixed cost (a dozen statements) for a few events: unless someone waits for the projections,
   * its next parts get a moment to join the next batch.
   */
  private async gather(ms: number): Promise<void> {
    if (!this.waiters.waiting()) await sleep(ms, this.wake.signal);
  }

  /**
   * The log ran dry: the checkpoints of projectors that had nothing in the last batches catch up with
   * their lanes, so processes that poll the checkpoints (an API without the projector role) see every
   * read model at the head, not only those that applied something.
   */
  private async checkpointIdle(): Promise<void> {
    // A shadow lane's checkpoints live in its shadow; the live rows stand still until the swap.
    const lanes = this.lanes.filter((l) => !l.failure && !l.shadow && l.projectors.length > 0);
    await this.db.transaction().execute(async (trx) => {
      for (const lane of lanes) {
        await saveCheckpoints(trx, lane.projectors.map((p) => ({ name: p.name, version: p.version, position: lane.position, state: lane.rebuilding ? 'rebuilding' : 'live' })), lane.position);
      }
    });
    this.idleBehind = false;
  }

  /** A projector's batch failed: it leaves its lane for one of its own at `at`, retried after a backoff. */
  private retryAlone(projector: Projector, at: Pick<Lane, 'position' | 'rebuilding' | 'shadow'>, attempts: number, error: unknown): Lane {
    const delay = backoff(this.options, attempts);
    const lane: Lane = { projectors: [projector], ...at, failure: { attempts, retryAt: Date.now() + delay, error: messageOf(error) } };
    this.lanes.push(lane);
    if (attempts < maxAttempts(this.options)) log.warn('projections: projector failed, retrying alone', { projector: projector.name, attempt: attempts, delay_ms: delay, error: messageOf(error) });
    return lane;
  }

  /** Past the bound: applies the events before the one the projector fails on, and stops it there. */
  private async stall(lane: Lane, upTo: Position | undefined): Promise<void> {
    const projector = lane.projectors[0]!;
    const batch = await this.readBatch(lane, upTo);
    const located = await this.stalls.stop(this.db, projector, batch, lane.position, lane.rebuilding && upTo ? 'rebuilding' : 'live', lane.shadow);
    this.notify([[projector, located.applied]]);
    lane.position = located.position;
    if (located.stall) this.lanes = this.lanes.filter((l) => l !== lane);
    else lane.failure = undefined;
  }

  private notify(applied: BatchOutcome['applied']): void {
    for (const [projector, events] of applied) {
      if (events.length === 0) continue;
      for (const listener of this.listeners) {
        try {
          listener(projector.name, events);
        } catch (error) {
          log.error('projections: an applied-events listener failed', { projector: projector.name, error: messageOf(error) });
        }
      }
    }
  }

  /**
   * Rebuilt projectors leave their lanes (or their stall, or an earlier rebuild's shadow) for a lane
   * of their own at the start of the log, replaying into a shadow; the live read models stand still.
   */
  private async startPendingRebuilds(): Promise<void> {
    const started = await this.rebuilds.startPending((projectors) => createShadow(this.db, projectors));
    for (const { projectors, prepared: shadow } of started) {
      // Lanes change in one step: a status read meanwhile (/readyz) finds every projector in a lane.
      const left = this.leaveShadows(projectors);
      for (const lane of this.lanes) lane.projectors = lane.projectors.filter((p) => !projectors.includes(p));
      this.lanes = [...this.lanes.filter((l) => l.projectors.length > 0), { projectors, position: START, rebuilding: true, shadow }];
      this.stalls.forget(projectors.map((p) => p.name));
      await dropLeft(this.db, left);
    }
  }

  /**
   * In the transaction of a rebuild's last batch: the applied projectors' rows replace the live
   * ones and their checkpoints move there; the lane carries on live (it may still be a batch behind).
   */
  private async swap(trx: Transaction<Database>, lane: Lane, projectors: Projector[], position: Position): Promise<void> {
    const shadow = lane.shadow!;
    await swapIn(trx, shadow, projectors);
    await saveCheckpoints(trx, projectors.map((p) => ({ name: p.name, version: p.version, position, state: 'live' })));
    // A projector that failed this batch stays in the shadow, on a retry lane of its own.
    const everyone = projectors.length === lane.projectors.length;
    if (everyone && !this.lanes.some((l) => l !== lane && l.shadow === shadow)) await dropShadow(trx, shadow);
  }

  /** After the swap's commit: the lane holds the live read models, perhaps a batch behind. */
  private swapped(lane: Lane): void {
    lane.shadow = undefined;
    lane.rebuilding = false;
  }

  /** Cancelled or failed rebuilds: their shadows are dropped, the projectors carry on from their live checkpoints. */
  private async abandonRebuilds(): Promise<void> {
    const names = this.rebuilds.takeAbandoned();
    const projectors = this.projectors.filter((p) => names.includes(p.name) && this.lanes.some((l) => l.shadow && l.projectors.includes(p)));
    if (projectors.length === 0) return;
    const stored = await readCheckpoints(this.db);
    const { lanes, stalls } = lanesAtStart(projectors, (p) => stored.get(p.name), maxAttempts(this.options));
    // In one step, as when a rebuild starts.
    const left = this.leaveShadows(projectors);
    this.lanes.push(...lanes);
    this.stalls.forget(projectors.map((p) => p.name));
    for (const [name, stall] of stalls) this.stalls.remember(name, stall);
    await dropLeft(this.db, left);
  }

  /** Takes `projectors` out of the shadow lanes that hold them; answers the copies to drop (a whole shadow once unused). */
  private leaveShadows(projectors: Projector[]): LeftShadow[] {
    const left: Omit<LeftShadow, 'whole'>[] = [];
    for (const lane of this.lanes.filter((l) => l.shadow)) {
      const leaving = lane.projectors.filter((p) => projectors.includes(p));
      if (leaving.length === 0) continue;
      lane.projectors = lane.projectors.filter((p) => !leaving.includes(p));
      left.push({ shadow: lane.shadow!, leaving });
    }
    this.lanes = this.lanes.filter((l) => l.projectors.length > 0);
    return left.map((l) => ({ ...l, whole: !this.lanes.some((lane) => lane.shadow === l.shadow) }));
  }

  private async reset(projectors: Projector[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const table of new Set(projectors.flatMap((p) => p.tables))) await trx.deleteFrom(table as never).execute();
      await saveCheckpoints(trx, projectors.map((p) => ({ name: p.name, version: p.version, position: START, state: 'rebuilding' })));
    });
    this.stalls.forget(projectors.map((p) => p.name));
  }

  /** Stalled projectors and rebuilds behind the live lane are never waited for. */
  private publishProgress(): void {
    const leader = leaderOf(this.lanes);
    const progress = new Map<string, Position | null>();
    for (const lane of this.lanes) {
      const waited = !lane.rebuilding || lane === leader;
      for (const p of lane.projectors) progress.set(p.name, waited ? lane.position : null);
    }
    for (const name of this.stalls.stalled.keys()) progress.set(name, null);
    this.waiters.update(progress);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const woken = () => (clearTimeout(timer), resolve());
    const timer = setTimeout(() => (signal.removeEventListener('abort', woken), resolve()), ms);
    signal.addEventListener('abort', woken, { once: true });
  });
}

interface LeftShadow {
  shadow: Shadow;
  leaving: Projector[];
  /** No lane uses the shadow any more: it goes whole. */
  whole: boolean;
}

async function dropLeft(db: Kysely<Database>, left: LeftShadow[]): Promise<void> {
  for (const { shadow, leaving, whole } of left) {
    if (whole) await dropShadow(db, shadow);
    else await dropTables(db, shadow, leaving);
  }
}
