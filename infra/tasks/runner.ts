import type { Kysely } from 'kysely';
import type { WithoutMeta } from '../../shared/commands.ts';
import { monotonicFactory } from 'ulid';
import { ulidRandom } from '../../shared/ids.ts';
import { taskStream } from '../../shared/streams.ts';
import { messageOf } from '../../shared/errors.ts';
import * as taskDecider from './task.decider.ts';
import type { TaskCommand } from './task.decider.ts';
import { log } from '../logger.ts';
import type { Bus } from '../bus/bus.ts';
import type { Database } from '../db/database.ts';
import { inBackground } from '../db/work-class.ts';
import type { EventStore } from '../eventstore/event-store.ts';
import { aggregate } from '../eventstore/aggregate.ts';
import { withAppendLog } from '../eventstore/append-log.ts';
import { type ReadModels, unitOfWork } from '../projections/read-models.ts';
import { type Handled, handleCommand } from '../eventstore/command-handler.ts';
import type { TaskEvent } from '../../shared/events/tasks.events.ts';
import { StoppedByCancel, type TaskContext, type TaskDefinition } from './task.ts';
import { ProgressReporter } from './progress.ts';
import { RENEW_MS, TaskLeases } from './leases.ts';
import { instanceId } from '../instance.ts';

const INTERRUPTED = 'interrupted: the service stopped while the task ran';
const ORPHANED = 'interrupted: the worker running it stopped renewing its lease';
/** How often a worker looks for running tasks nobody holds (PostgreSQL, several workers). */
const ORPHAN_SWEEP_MS = 1000;

/**
 * Why a running task's signal was aborted. `lost`: another worker holds its lease now (this one
 * stopped renewing in time), so this one records nothing.
 */
type StopReason = 'cancel' | 'shutdown' | 'lost';

/** A redelivered request for a task that already ended. */
class AlreadyEnded extends Error {}

let runners = 0;

/** Task ids sort by start even within one millisecond, so "newest first" is well defined. */
const nextTaskId = monotonicFactory(ulidRandom);

interface Running {
  controller: AbortController;
  /** Progress writes still in flight or held back: the outcome is recorded after them. */
  progress: ProgressReporter;
}

/**
 * Starts tasks (a `task-<id>` stream and a bus message), runs them in the worker role, and carries
 * cancels to whichever process runs the task.
 */
export class TaskRunner {
  private readonly definitions = new Map<string, TaskDefinition<any>>();
  private readonly running = new Map<string, Running>();
  /** What `idle()` waits for: runs and the requests being claimed. */
  private readonly busy = new Set<Promise<void>>();
  /** How long `stop()` waits for running tasks to reach a checkpoint before it leaves them. */
  shutdownGraceMs = 10_000;
  private readonly leases: TaskLeases;
  private renewTimer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly bus: Bus,
    private readonly db: Kysely<Database>,
    /** A task's run finishes once the read models include what it appended (read-your-writes for whoever waits on its outcome). */
    private readonly readModels: () => ReadModels,
  ) {
    this.leases = new TaskLeases(db, `${instanceId}/${++runners}`);
  }

  register(definition: TaskDefinition<any>): void {
    if (this.definitions.has(definition.name)) throw new Error(`task ${definition.name} registered twice`);
    this.definitions.set(definition.name, definition);
  }

  /** Records the task as started and hands it to a worker; answers at once. */
  async start(name: string, params: Record<string, unknown>, startedBy: string | null) {
    if (!this.definitions.has(name)) throw new Error(`unknown task ${name}`);
    const taskId = nextTaskId();
    const handled = await this.command(taskId, { type: 'StartTask', name, params, startedBy }, startedBy);
    await this.bus.publish('tasks.requested', { key: taskId, value: { task_id: taskId, name, params, started_by: startedBy } });
    return { task_id: taskId, position: handled.result!.position };
  }

  /** Cooperative cancel: returns whether the task was running. 404 (NotFound) for an unknown id. */
  async cancel(taskId: string, requestedBy: string | null) {
    let wasRunning = false;
    const handled = await this.command(taskId, (state) => {
      wasRunning = state.status === 'running';
      return { type: 'RequestCancel', requestedBy };
    }, requestedBy);
    if (wasRunning) await this.bus.publish('tasks.cancel', { key: taskId, value: { task_id: taskId } });
    return { was_running: wasRunning, position: handled.result?.position };
  }

  /**
   * The worker role: take task requests and cancels from the bus, and renew the leases of the tasks
   * this worker runs. A request is taken only with the task's lease, so a redelivered one (or one
   * two workers received) runs nowhere twice.
   */
  async listen(): Promise<void> {
    await this.bus.subscribe('tasks.requested', 'shared', ({ value }) => this.whileBusy(this.take(value)));
    await this.bus.subscribe('tasks.cancel', 'broadcast', async ({ value }) => {
      this.running.get(String(value.task_id))?.controller.abort('cancel' satisfies StopReason);
    });
    this.renewTimer = setInterval(() => void this.renewLeases(), RENEW_MS);
  }

  private async take(request: Record<string, unknown>): Promise<void> {
    const taskId = String(request.task_id);
    const claimed = await this.leases.claim(taskId);
    if (claimed === 'fresh') this.execute(taskId, String(request.name), request.params as Record<string, unknown>, (request.started_by as string | null) ?? null, null);
    else if (claimed === 'taken-over') await this.takeOver(taskId, ORPHANED);
    else log.debug('tasks: request for a task another worker runs', { task_id: taskId });
  }

  /**
   * Work `idle()` waits for. A request being claimed counts: its task is about to run, and `idle()`
   * right after a start must not answer before the task has begun.
   */
  private whileBusy(work: Promise<void>): Promise<void> {
    const done: Promise<void> = work.then(() => undefined, () => undefined).finally(() => this.busy.delete(done));
    this.busy.add(done);
    return work;
  }

  /**
   * After a restart nothing runs the tasks the log still shows running: resumable ones start again
   * from their last progress, the others are recorded failed. Only safe where this process is the
   * only worker (the embedded database): it takes their leases without waiting for them to run out.
   */
  async recoverInterrupted(): Promise<number> {
    const rows = await this.db.selectFrom('task_history').select('task_id').where('status', '=', 'running').execute();
    for (const row of rows) {
      if (this.running.has(row.task_id)) continue;
      await this.leases.claim(row.task_id, true);
      await this.takeOver(row.task_id, INTERRUPTED);
    }
    return rows.length;
  }

  /**
   * Several workers on PostgreSQL: every second, take the running tasks nobody holds, those whose
   * request reached no worker (the log carries requests when there is no Kafka) and those whose
   * worker stopped renewing (killed): resumed when resumable, else recorded failed.
   */
  adoptOrphans(): void {
    const sweep = async () => {
      for (const orphan of await this.leases.orphans()) {
        if (this.running.has(orphan.task_id)) continue;
        const claimed = await this.leases.claim(orphan.task_id);
        if (claimed === 'fresh') this.execute(orphan.task_id, orphan.name, orphan.params, orphan.started_by, null);
        else if (claimed === 'taken-over') await this.takeOver(orphan.task_id, ORPHANED);
      }
    };
    const next = () => {
      this.sweepTimer = setTimeout(() => {
        void inBackground(sweep)
          .catch((error: unknown) => log.warn('tasks: could not look for orphaned tasks', { error: messageOf(error) }))
          .finally(() => this.sweepTimer && next());
      }, ORPHAN_SWEEP_MS);
    };
    next();
  }

  /** A task whose worker went away, now this one's: resumed from its last progress when resumable, else failed. */
  private async takeOver(taskId: string, why: string): Promise<void> {
    const row = await this.db.selectFrom('task_history').selectAll().where('task_id', '=', taskId).executeTakeFirst();
    if (!row || row.status !== 'running') return this.leases.release(taskId);
    if (this.definitions.get(row.name)?.resumable) {
      log.info('tasks: resuming interrupted task', { task_id: taskId, name: row.name });
      this.execute(taskId, row.name, row.params, row.started_by, row.progress ?? {});
    } else {
      await this.command(taskId, { type: 'FailTask', error: why }, null);
      await this.leases.release(taskId);
    }
  }

  /** Keeps this worker's leases; a task whose lease another worker took stops here without a word. */
  private async renewLeases(): Promise<void> {
    try {
      for (const taskId of await this.leases.renew([...this.running.keys()])) {
        log.warn('tasks: lost the lease of a running task, stopping it here', { task_id: taskId });
        this.running.get(taskId)?.controller.abort('lost' satisfies StopReason);
      }
    } catch (error) {
      log.warn('tasks: could not renew task leases', { error: messageOf(error) });
    }
  }

  /** Waits for the tasks this process runs or is taking up (tests, shutdown). */
  async idle(): Promise<void> {
    // The in-process bus delivers on the next turn of the event loop: a request published just
    // before is being taken up after this one.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.busy.size > 0) await Promise.all([...this.busy]);
  }

  /**
   * Asks every running task to stop at its next checkpoint and waits a bounded time: a task that
   * ignores its checkpoints must not hold the process. What is left running is resolved by
   * `recoverInterrupted` on the next start.
   */
  async stop(): Promise<void> {
    clearTimeout(this.sweepTimer);
    this.sweepTimer = undefined;
    clearInterval(this.renewTimer);
    for (const { controller } of this.running.values()) controller.abort('shutdown' satisfies StopReason);
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.shutdownGraceMs);
    });
    const outcome = await Promise.race([this.idle(), grace]);
    clearTimeout(timer);
    if (outcome === 'timeout') log.warn('tasks: left running at shutdown', { task_ids: [...this.running.keys()] });
  }

  /**
   * Runs a task, outcome included, in append logs of its own: what it appends is not the request's
   * that started it (the in-process bus hands the request over in the request's async context).
   */
  private execute(taskId: string, name: string, params: Record<string, unknown>, startedBy: string | null, resumedFrom: Record<string, unknown> | null): void {
    withAppendLog(() => inBackground(() => this.executeAside(taskId, name, params, startedBy, resumedFrom)));
  }

  private executeAside(taskId: string, name: string, params: Record<string, unknown>, startedBy: string | null, resumedFrom: Record<string, unknown> | null): void {
    if (this.running.has(taskId)) return;
    const definition = this.definitions.get(name);
    const controller = new AbortController();
    const entry: Running = { controller, progress: this.reporter(taskId, name, startedBy) };
    // Registered before the state is read: a cancel either reaches this controller or is in the log.
    this.running.set(taskId, entry);
    log.info('task started', { task_id: taskId, name, ...(resumedFrom ? { resumed: true } : {}) });
    const run = (async () => {
      if (!definition) throw new Error(`no task named ${name} in this worker`);
      const state = await this.state(taskId);
      if (state.status !== 'running') throw new AlreadyEnded();
      if (state.cancelRequested) controller.abort('cancel' satisfies StopReason);
      // A run of its own for read-your-writes, not the request that started it.
      return unitOfWork(this.readModels(), () => definition.run(this.contextFor(taskId, params, startedBy, entry, resumedFrom)), { reactions: false });
    })();
    const outcome = run
      .then(
        async (summary) => {
          await entry.progress.flush();
          await this.command(taskId, { type: 'FinishTask', summary }, startedBy);
          await this.leases.release(taskId);
          log.info('task finished', { task_id: taskId, name, summary });
        },
        async (error) => {
          if (error instanceof AlreadyEnded) return this.leases.release(taskId);
          await entry.progress.flush();
          await this.recordStop(taskId, name, definition, controller.signal, error, startedBy);
        },
      )
      .then(
        () => undefined,
        (error) => log.error('tasks: could not record the outcome', { task_id: taskId, error: String(error) }),
      )
      .finally(() => this.running.delete(taskId));
    void this.whileBusy(outcome);
  }

  /**
   * A task that stopped early: after a cancel it is cancelled (whether it stopped at a checkpoint or
   * an aborted await), at shutdown it is interrupted (left for a resumable task to resume), else failed.
   */
  private async recordStop(taskId: string, name: string, definition: TaskDefinition<any> | undefined, signal: AbortSignal, error: unknown, startedBy: string | null) {
    const reason = signal.aborted ? (signal.reason as StopReason) : undefined;
    if (reason === 'lost') return;
    if (reason === 'cancel' || (!reason && error instanceof StoppedByCancel)) {
      const summary = error instanceof StoppedByCancel ? error.summary : {};
      await this.command(taskId, { type: 'CancelTask', summary }, startedBy);
      log.info('task cancelled', { task_id: taskId, name, summary });
    } else if (reason === 'shutdown') {
      log.info('task interrupted by the stop', { task_id: taskId, name, resumes: Boolean(definition?.resumable) });
      // Left for another worker (or the next start) to resume, without waiting for the lease to run out.
      if (definition?.resumable) return this.leases.expire(taskId);
      await this.command(taskId, { type: 'FailTask', error: INTERRUPTED }, startedBy);
    } else {
      log.error('tasks: task failed', { task_id: taskId, name, error: messageOf(error) });
      await this.command(taskId, { type: 'FailTask', error: messageOf(error) }, startedBy);
    }
    await this.leases.release(taskId);
  }

  private contextFor(taskId: string, params: Record<string, unknown>, startedBy: string | null, entry: Running, resumedFrom: Record<string, unknown> | null): TaskContext {
    const { signal } = entry.controller;
    return {
      taskId,
      params,
      startedBy,
      signal,
      resumedFrom,
      checkpoint() {
        if (signal.aborted) throw new StoppedByCancel();
      },
      progress: (progress) => entry.progress.report(progress),
    };
  }

  private reporter(taskId: string, name: string, startedBy: string | null): ProgressReporter {
    return new ProgressReporter(
      (progress) =>
        this.command(taskId, { type: 'RecordProgress', progress }, startedBy).then(
          () => undefined,
          (error) => log.warn('tasks: could not record progress', { task_id: taskId, error: String(error) }),
        ),
      (progress) => log.info('task progress', { task_id: taskId, name, progress }),
    );
  }

  private async state(taskId: string): Promise<taskDecider.TaskState> {
    return (await aggregate<taskDecider.TaskState, TaskEvent>(this.store, taskStream(taskId), taskDecider.evolve, taskDecider.initialState())).state;
  }

  private command(taskId: string, command: WithoutMeta<TaskCommand> | ((s: taskDecider.TaskState) => WithoutMeta<TaskCommand>), actor: string | null): Promise<Handled<TaskEvent>> {
    const withMeta = (c: WithoutMeta<TaskCommand>) => ({ ...c, meta: { taskId, now: new Date().toISOString() } }) as TaskCommand;
    return handleCommand(
      this.store,
      taskStream(taskId),
      taskDecider,
      typeof command === 'function' ? (s: taskDecider.TaskState) => withMeta(command(s)) : withMeta(command),
      { actor, correlation_id: taskId },
    );
  }
}
