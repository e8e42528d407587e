import { randomUUID } from 'node:crypto';
import type { NewEvent, StreamAppend } from '../../infra/eventstore/event-store.ts';

/**
 * Synthetic task lives shaped as in shared/events/tasks.events.ts: a `task-<id>` stream of one
 * TaskStarted, some TaskProgressed and one TaskFinished, so the task_history projector does real
 * work (an insert, then updates) when the log is replayed.
 */
export const EVENTS_PER_TASK = 10;

export function taskLife(taskId: string = randomUUID(), actor = 'bench'): NewEvent[] {
  const t0 = Date.now();
  const at = (i: number) => new Date(t0 + i).toISOString();
  const metadata = { actor, correlation_id: taskId };
  const events: NewEvent[] = [
    {
      type: 'TaskStarted',
      data: { task_id: taskId, name: 'bench.synthetic', params: { source: 'bench', drain: true }, started_by: actor, at: at(0) },
      metadata,
    },
  ];
  const steps = EVENTS_PER_TASK - 2;
  for (let i = 1; i <= steps; i++) {
    events.push({ type: 'TaskProgressed', data: { task_id: taskId, progress: { processed: i * 100, total: steps * 100 }, at: at(i) }, metadata });
  }
  events.push({ type: 'TaskFinished', data: { task_id: taskId, summary: { processed: steps * 100, ok: true }, at: at(EVENTS_PER_TASK) }, metadata });
  return events;
}

/** One appendMany batch of `size` events: whole task streams, each appended with "no stream". */
export function taskBatch(size: number, actor?: string): StreamAppend[] {
  const appends: StreamAppend[] = [];
  for (let n = 0; n < size; n += EVENTS_PER_TASK) {
    const taskId = randomUUID();
    appends.push({ streamId: `task-${taskId}`, events: taskLife(taskId, actor).slice(0, size - n), expectedRevision: 'no_stream' });
  }
  return appends;
}

/** The same rows the Postgres store writes, for the raw INSERT ceiling. */
export interface RawRow {
  stream_id: string;
  stream_revision: number;
  event_id: string;
  event_type: string;
  data: string;
  metadata: string;
}

export function rawRows(size: number): RawRow[] {
  const rows: RawRow[] = [];
  for (const append of taskBatch(size)) {
    append.events.forEach((e, revision) =>
      rows.push({
        stream_id: append.streamId,
        stream_revision: revision,
        event_id: randomUUID(),
        event_type: e.type,
        data: JSON.stringify(e.data),
        metadata: JSON.stringify({ at: new Date().toISOString(), ...e.metadata }),
      }),
    );
  }
  return rows;
}
