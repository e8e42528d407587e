import type { EventOf, DomainEvent } from '../../shared/events/index.ts';
import type { TaskEvent } from '../../shared/events/tasks.events.ts';
import { Conflict, NotFound } from '../../shared/errors.ts';
import { assertNever } from '../../shared/never.ts';

export type TaskStatus = 'running' | 'completed' | 'failed' | 'cancelled';

export interface TaskState {
  status: 'unknown' | TaskStatus;
  name?: string;
  startedBy?: string | null;
  cancelRequested: boolean;
}

export const initialState = (): TaskState => ({ status: 'unknown', cancelRequested: false });

export function evolve(state: TaskState, event: TaskEvent): TaskState {
  switch (event.type) {
    case 'TaskStarted':
      return { status: 'running', name: event.data.name, startedBy: event.data.started_by, cancelRequested: false };
    case 'TaskProgressed':
      return state;
    case 'TaskCancelRequested':
      return { ...state, cancelRequested: true };
    case 'TaskFinished':
      return { ...state, status: 'completed' };
    case 'TaskFailed':
      return { ...state, status: 'failed' };
    case 'TaskCancelled':
      return { ...state, status: 'cancelled' };
    default:
      return assertNever(event);
  }
}

interface Meta {
  taskId: string;
  now: string;
}

export type TaskCommand =
  | { type: 'StartTask'; name: string; params: Record<string, unknown>; startedBy: string | null; meta: Meta }
  | { type: 'RecordProgress'; progress: Record<string, unknown>; meta: Meta }
  | { type: 'RequestCancel'; requestedBy: string | null; meta: Meta }
  | { type: 'FinishTask'; summary: Record<string, unknown>; meta: Meta }
  | { type: 'FailTask'; error: string; meta: Meta }
  | { type: 'CancelTask'; summary: Record<string, unknown>; meta: Meta };

/** Returns the events a command produces; an empty list is a no-op (cancel of a finished task). */
export function decide(state: TaskState, command: TaskCommand): TaskEvent[] {
  const { taskId: task_id, now: at } = command.meta;
  if (command.type === 'StartTask') {
    if (state.status !== 'unknown') throw new Conflict(`task ${task_id} already exists`);
    return [event('TaskStarted', { task_id, name: command.name, params: command.params, started_by: command.startedBy, at })];
  }
  if (state.status === 'unknown') throw new NotFound('Task not found');
  if (state.status !== 'running') return [];
  switch (command.type) {
    case 'RecordProgress':
      return [event('TaskProgressed', { task_id, progress: command.progress, at })];
    case 'RequestCancel':
      return state.cancelRequested ? [] : [event('TaskCancelRequested', { task_id, requested_by: command.requestedBy, at })];
    case 'FinishTask':
      return [event('TaskFinished', { task_id, summary: command.summary, at })];
    case 'FailTask':
      return [event('TaskFailed', { task_id, error: command.error, at })];
    case 'CancelTask':
      return [event('TaskCancelled', { task_id, summary: command.summary, at })];
    default:
      return assertNever(command);
  }
}

function event<T extends TaskEvent['type']>(type: T, data: EventOf<T>['data']): TaskEvent {
  return { type, data } as TaskEvent;
}

export const fold = (events: DomainEvent[]): TaskState =>
  events.reduce((s, e) => evolve(s, e as TaskEvent), initialState());
