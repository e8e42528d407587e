import { expect } from 'chai';
import * as decider from '../../../../infra/tasks/task.decider.ts';
import type { TaskCommand } from '../../../../infra/tasks/task.decider.ts';
import type { TaskEvent } from '../../../../shared/events/tasks.events.ts';
import { Conflict, NotFound } from '../../../../shared/errors.ts';

const task_id = '01J0000000000000000000TASK';
const meta = { taskId: task_id, now: '2025-03-01T10:00:00.000Z' };
const at = meta.now;
const earlier = '2025-03-01T09:00:00.000Z';

type WithoutMeta<C> = C extends { meta: unknown } ? Omit<C, 'meta'> : never;

/** given(events).when(command).then(events | error) */
function given(...events: TaskEvent[]) {
  return {
    when(command: WithoutMeta<TaskCommand>) {
      const state = events.reduce(decider.evolve, decider.initialState());
      const run = () => decider.decide(state, { ...command, meta } as TaskCommand);
      return {
        then(expected: TaskEvent[]) {
          expect(run()).to.deep.equal(expected);
        },
        thenThrows(type: new (...args: never[]) => Error, message?: RegExp) {
          expect(run).to.throw(type, message);
        },
      };
    },
  };
}

const started: TaskEvent = { type: 'TaskStarted', data: { task_id, name: 'canonical.rebuild', params: { full: true }, started_by: 'alice', at: earlier } };
const progressed: TaskEvent = { type: 'TaskProgressed', data: { task_id, progress: { processed: 10 }, at: earlier } };
const cancelRequested: TaskEvent = { type: 'TaskCancelRequested', data: { task_id, requested_by: 'admin', at: earlier } };
const finished: TaskEvent = { type: 'TaskFinished', data: { task_id, summary: { events_replayed: 10 }, at: earlier } };
const failed: TaskEvent = { type: 'TaskFailed', data: { task_id, error: 'boom', at: earlier } };
const cancelled: TaskEvent = { type: 'TaskCancelled', data: { task_id, summary: {}, at: earlier } };
const ended = { completed: finished, failed, cancelled };

describe('task decider', () => {
  describe('StartTask', () => {
    it('starts a new task with its name, params and starter', () => {
      given()
        .when({ type: 'StartTask', name: 'canonical.rebuild', params: { full: true }, startedBy: 'alice' })
        .then([{ type: 'TaskStarted', data: { task_id, name: 'canonical.rebuild', params: { full: true }, started_by: 'alice', at } }]);
    });

    it('starts a task nobody asked for (started_by null)', () => {
      given()
        .when({ type: 'StartTask', name: 'cron.job', params: {}, startedBy: null })
        .then([{ type: 'TaskStarted', data: { task_id, name: 'cron.job', params: {}, started_by: null, at } }]);
    });

    it('refuses to start a task id twice', () => {
      given(started).when({ type: 'StartTask', name: 'x', params: {}, startedBy: null }).thenThrows(Conflict);
      given(started, finished).when({ type: 'StartTask', name: 'x', params: {}, startedBy: null }).thenThrows(Conflict);
    });
  });

  describe('a running task', () => {
    it('records progress', () => {
      given(started, progressed)
        .when({ type: 'RecordProgress', progress: { processed: 20, total: 40 } })
        .then([{ type: 'TaskProgressed', data: { task_id, progress: { processed: 20, total: 40 }, at } }]);
    });

    it('takes a cancel request once', () => {
      given(started).when({ type: 'RequestCancel', requestedBy: 'admin' }).then([{ type: 'TaskCancelRequested', data: { task_id, requested_by: 'admin', at } }]);
      given(started, cancelRequested).when({ type: 'RequestCancel', requestedBy: 'bob' }).then([]);
    });

    it('finishes with a summary', () => {
      given(started, progressed)
        .when({ type: 'FinishTask', summary: { events_replayed: 10 } })
        .then([{ type: 'TaskFinished', data: { task_id, summary: { events_replayed: 10 }, at } }]);
    });

    it('fails with an error', () => {
      given(started).when({ type: 'FailTask', error: 'upstream down' }).then([{ type: 'TaskFailed', data: { task_id, error: 'upstream down', at } }]);
    });

    it('is cancelled at a checkpoint after a cancel request', () => {
      given(started, cancelRequested)
        .when({ type: 'CancelTask', summary: { done: 3 } })
        .then([{ type: 'TaskCancelled', data: { task_id, summary: { done: 3 }, at } }]);
    });

    it('may still finish after a cancel request it never reached a checkpoint for', () => {
      given(started, cancelRequested, progressed)
        .when({ type: 'FinishTask', summary: {} })
        .then([{ type: 'TaskFinished', data: { task_id, summary: {}, at } }]);
    });
  });

  describe('a finished task', () => {
    for (const [status, end] of Object.entries(ended)) {
      it(`ignores every later command once ${status}`, () => {
        const commands: WithoutMeta<TaskCommand>[] = [
          { type: 'RecordProgress', progress: { late: true } },
          { type: 'RequestCancel', requestedBy: 'admin' },
          { type: 'FinishTask', summary: {} },
          { type: 'FailTask', error: 'interrupted' },
          { type: 'CancelTask', summary: {} },
        ];
        for (const command of commands) given(started, progressed, end).when(command).then([]);
      });
    }
  });

  describe('an unknown task', () => {
    it('is not found for anything but a start', () => {
      for (const type of ['RecordProgress', 'RequestCancel', 'FinishTask', 'FailTask', 'CancelTask'] as const) {
        const command = { type, progress: {}, summary: {}, error: 'x', requestedBy: null } as unknown as WithoutMeta<TaskCommand>;
        given().when(command).thenThrows(NotFound, /Task not found/);
      }
    });
  });

  describe('evolve', () => {
    it('folds a life into its status, starter and cancel flag', () => {
      expect(decider.fold([])).to.deep.equal({ status: 'unknown', cancelRequested: false });
      expect(decider.fold([started, progressed])).to.deep.equal({ status: 'running', name: 'canonical.rebuild', startedBy: 'alice', cancelRequested: false });
      expect(decider.fold([started, cancelRequested, cancelled])).to.include({ status: 'cancelled', cancelRequested: true });
      expect(decider.fold([started, finished]).status).to.equal('completed');
      expect(decider.fold([started, failed]).status).to.equal('failed');
    });
  });
});
