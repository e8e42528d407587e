import type { AppContext } from '../../infra/context.ts';
import { log } from '../../infra/logger.ts';
import { StoppedByCancel, type TaskContext } from '../../infra/tasks/task.ts';
import { previousRuns } from '../../projectors/tasks/task-history.reads.ts';
import type { KnownErrorSource } from '../../shared/enrichment/error-sources.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { UpstreamError, messageOf } from '../../shared/errors.ts';
import { enrichmentCommands } from './enrichment-commands.ts';

/** Backlog rows read per query. */
const PAGE = 100;
/** Upstream faults in a row (not "nothing there") after which a drain stops: the service is down, not the items. */
const MAX_FAULTS_IN_A_ROW = 10;

export interface DrainParams {
  limit: number;
  /** Absent for a drain the interface gives no `drain` parameter: one batch per run. */
  drain?: boolean;
}

/**
 * One enrichment drain over a backlog: `limit` items (at most `batchCap`) or, with `drain`, the
 * whole backlog up to `drainCap`. Items come in key order; a run starts after the key where the
 * previous run of the same task and scope stopped, and wraps round to the start once, so failing
 * items never hold the rest back and are tried again on the next pass. See docs/enrichment.md.
 */
export interface DrainSpec<Item> {
  ctx: AppContext;
  task: TaskContext<DrainParams>;
  /** The task's name: a run continues where the last run of this name (and scope) stopped. */
  name: string;
  /** The params that pick the backlog (`{kind}`): a cursor carries over only between runs of the same scope. */
  scope: Record<string, unknown>;
  batchCap: number;
  drainCap: number;
  /** Items after `after` in key order (from the start when null), at most `n`; keys compare bytewise (`collate "C"`). */
  backlog(after: string | null, n: number): Promise<Item[]>;
  keyOf(item: Item): string;
  /** The error rows the drain files: `<source>:<kind>:<canonical_id>` of each item. */
  errors: { source: KnownErrorSource; entityOf(item: Item): { kind: Kind; id: string } };
  /** Works one item and names the outcome (counted in the summary). Throwing files an error row. */
  work(item: Item): Promise<string>;
}

export interface DrainSummary {
  [key: string]: unknown;
  processed: number;
  failed: number;
  outcomes: Record<string, number>;
  /** The key of the last item worked: the next run starts after it. */
  cursor: string | null;
  /** The run walked every item of the backlog it saw (false: it stopped at its limit or cap). */
  finished: boolean;
}

export async function runDrain<Item>(spec: DrainSpec<Item>): Promise<DrainSummary> {
  const { task, ctx } = spec;
  const budget = task.params.drain ? spec.drainCap : Math.min(task.params.limit, spec.batchCap);
  const start = (task.resumedFrom?.cursor as string | null | undefined) ?? (await lastCursor(spec));
  const errors = enrichmentCommands(ctx, task.startedBy);
  const summary: DrainSummary = { processed: 0, failed: 0, outcomes: {}, cursor: start, finished: false, started_after: start, budget };
  let faults = 0;
  try {
    for await (const item of ring(spec, start)) {
      if (summary.processed >= budget) return summary;
      task.checkpoint();
      const entity = spec.errors.entityOf(item);
      try {
        const outcome = await spec.work(item);
        summary.outcomes[outcome] = (summary.outcomes[outcome] ?? 0) + 1;
        await errors.succeeded(entity.kind, entity.id, spec.errors.source);
        faults = 0;
      } catch (error) {
        if (task.signal.aborted || error instanceof StoppedByCancel) throw error;
        summary.failed++;
        await errors.failed(entity.kind, entity.id, spec.errors.source, error);
        faults = error instanceof UpstreamError ? faults + 1 : 0;
        if (faults >= MAX_FAULTS_IN_A_ROW) throw new UpstreamError(error instanceof UpstreamError ? error.service : 'upstream', `stopped after ${faults} failures in a row: ${messageOf(error)}`);
      }
      summary.processed++;
      summary.cursor = spec.keyOf(item);
      void task.progress(summary);
      // Work without network calls must still let cheap reads through on the embedded database.
      await new Promise((resolve) => setImmediate(resolve));
    }
    summary.finished = true;
    return summary;
  } catch (error) {
    if (task.signal.aborted || error instanceof StoppedByCancel) throw new StoppedByCancel(summary);
    log.warn('enrichment: drain stopped', { task_id: task.taskId, error: messageOf(error), processed: summary.processed });
    throw error;
  }
}

/**
 * The backlog from just after `start` to its end, then from its beginning up to `start`: every
 * item once per run. Items leave the backlog as they are worked, so each page is asked afresh.
 */
async function* ring<Item>(spec: DrainSpec<Item>, start: string | null): AsyncGenerator<Item> {
  let after = start;
  let wrapped = start === null;
  for (;;) {
    const page = await spec.backlog(after, PAGE);
    const items = wrapped && start !== null ? page.filter((item) => spec.keyOf(item) <= start) : page;
    yield* items;
    if (items.length === PAGE) {
      after = spec.keyOf(items[PAGE - 1]!);
      continue;
    }
    if (wrapped) return;
    wrapped = true;
    after = null;
  }
}

/** Where the last run of this task and scope stopped, if it ran before. */
async function lastCursor(spec: DrainSpec<unknown>): Promise<string | null> {
  const runs = await previousRuns(spec.ctx.db, spec.name, 20);
  const sameScope = runs.filter((r) => r.task_id !== spec.task.taskId && Object.entries(spec.scope).every(([k, v]) => r.params[k] === v));
  for (const run of sameScope) {
    const cursor = (run.summary?.cursor ?? run.progress?.cursor) as string | null | undefined;
    if (cursor !== undefined) return cursor;
  }
  return null;
}
