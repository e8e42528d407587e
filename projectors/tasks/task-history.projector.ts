import type { Insertable, Transaction, Updateable } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import type { Projector, StoredEvent } from '../../infra/projections/projector.ts';
import { assertNever } from '../../shared/never.ts';
import type { TaskEvent } from '../../shared/events/tasks.events.ts';
import type { TaskHistoryTable } from './task-history.table.ts';

type Started = Insertable<TaskHistoryTable>;
type Patch = Updateable<TaskHistoryTable>;

/**
 * task_history: one row per task run, its status, progress and outcome. A batch folds each task's
 * events into one write (a long import reports progress hundreds of times): its start with what
 * followed, or what changed since the batch began.
 */
export const taskHistoryProjector: Projector = {
  name: 'task_history',
  version: 1,
  handles: ['TaskStarted', 'TaskProgressed', 'TaskCancelRequested', 'TaskFinished', 'TaskFailed', 'TaskCancelled'],
  tables: ['task_history'],
  async apply(trx, events) {
    const tasks = new Map<string, { started?: Started; patch: Patch }>();
    for (const event of events as (StoredEvent & TaskEvent)[]) {
      const id = event.data.task_id;
      const task = tasks.get(id) ?? { patch: {} };
      tasks.set(id, task);
      if (event.type !== 'TaskStarted') Object.assign(task.patch, patchOf(event));
      else if (!task.started) {
        // Changes before its start apply to a row already there, as they would one by one.
        await write(trx, id, { patch: task.patch });
        task.patch = {};
        task.started = startedRow(event);
      }
    }
    for (const [id, task] of tasks) await write(trx, id, task);
  },
};

/** A start inserts (nothing if the row is there) and the later changes apply on top; else just the changes. */
async function write(trx: Transaction<Database>, id: string, { started, patch }: { started?: Started; patch: Patch }): Promise<void> {
  const changed = Object.keys(patch).length > 0;
  if (started) {
    await trx
      .insertInto('task_history')
      .values({ ...started, ...patch })
      .onConflict((oc) => (changed ? oc.column('task_id').doUpdateSet(patch) : oc.column('task_id').doNothing()))
      .execute();
  } else if (changed) {
    await trx.updateTable('task_history').set(patch).where('task_id', '=', id).execute();
  }
}

function startedRow(event: Extract<TaskEvent, { type: 'TaskStarted' }>): Started {
  const at = new Date(event.data.at);
  return {
    task_id: event.data.task_id,
    name: event.data.name,
    status: 'running',
    started_by: event.data.started_by,
    params: JSON.stringify(event.data.params),
    progress: null,
    summary: null,
    error: null,
    cancel_requested: false,
    started_at: at,
    updated_at: at,
    finished_at: null,
  };
}

function patchOf(event: Exclude<TaskEvent, { type: 'TaskStarted' }>): Patch {
  const at = new Date(event.data.at);
  switch (event.type) {
    case 'TaskProgressed':
      return { progress: JSON.stringify(event.data.progress), updated_at: at };
    case 'TaskCancelRequested':
      return { cancel_requested: true, updated_at: at };
    case 'TaskFinished':
      // A backfill family whose upstream refused every call finishes as `fetch_failed`, not `completed`.
      return { status: finishedStatus(event.data.summary), summary: JSON.stringify(event.data.summary), updated_at: at, finished_at: at };
    case 'TaskFailed':
      return { status: 'failed', error: event.data.error, updated_at: at, finished_at: at };
    case 'TaskCancelled':
      return { status: 'cancelled', summary: JSON.stringify(event.data.summary), updated_at: at, finished_at: at };
    default:
      return assertNever(event);
  }
}

const finishedStatus = (summary: Record<string, unknown>) => (summary.outcome === 'fetch_failed' ? 'fetch_failed' : 'completed');
