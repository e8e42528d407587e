import type { Transaction } from 'kysely';
import type { Database } from '../../infra/db/database.ts';
import { type Projector, type StoredEvent, oneByOne } from '../../infra/projections/projector.ts';
import { assertNever } from '../../shared/never.ts';
import type { TaskEvent } from '../../shared/events/tasks.events.ts';

/** task_history: one row per task run, its status, progress and outcome. */
export const taskHistoryProjector: Projector = {
  name: 'task_history',
  version: 1,
  handles: ['TaskStarted', 'TaskProgressed', 'TaskCancelRequested', 'TaskFinished', 'TaskFailed', 'TaskCancelled'],
  tables: ['task_history'],
  apply: oneByOne<TaskEvent>(applyOne),
};

async function applyOne(trx: Transaction<Database>, event: StoredEvent & TaskEvent): Promise<void> {
  const at = new Date(event.data.at);
  const row = trx.updateTable('task_history').where('task_id', '=', event.data.task_id);
  switch (event.type) {
    case 'TaskStarted':
      await trx
        .insertInto('task_history')
        .values({
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
        })
        .onConflict((oc) => oc.column('task_id').doNothing())
        .execute();
      return;
    case 'TaskProgressed':
      await row.set({ progress: JSON.stringify(event.data.progress), updated_at: at }).execute();
      return;
    case 'TaskCancelRequested':
      await row.set({ cancel_requested: true, updated_at: at }).execute();
      return;
    case 'TaskFinished':
      // A backfill family whose upstream refused every call finishes as `fetch_failed`, not `completed`.
      await row.set({ status: finishedStatus(event.data.summary), summary: JSON.stringify(event.data.summary), updated_at: at, finished_at: at }).execute();
      return;
    case 'TaskFailed':
      await row.set({ status: 'failed', error: event.data.error, updated_at: at, finished_at: at }).execute();
      return;
    case 'TaskCancelled':
      await row.set({ status: 'cancelled', summary: JSON.stringify(event.data.summary), updated_at: at, finished_at: at }).execute();
      return;
    default:
      assertNever(event);
  }
}

const finishedStatus = (summary: Record<string, unknown>) => (summary.outcome === 'fetch_failed' ? 'fetch_failed' : 'completed');
