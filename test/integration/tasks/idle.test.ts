import { expect } from 'chai';
import { type TestApp, startTestApp } from '../../support/api.ts';
import { SLOW, registerTestTasks } from './test-tasks.ts';

describe('waiting for the tasks a process runs (tasks.idle)', () => {
  let app: TestApp;

  before(async () => {
    app = await startTestApp();
    registerTestTasks(app);
  });
  after(() => app.close());

  it('given a task just started, when idle is awaited at once, then it answers after the task has ended', async () => {
    const { task_id } = await app.ctx.tasks.start(SLOW, { max_ms: 300 }, null);
    await app.ctx.tasks.idle();
    const events = await app.ctx.store.readStream(`task-${task_id}`);
    expect(events.map((e) => e.type)).to.include('TaskFinished');
  });

  it('given a task whose request is still being taken up, then idle waits for it too', async () => {
    const { task_id } = await app.ctx.tasks.start(SLOW, { max_ms: 300 }, null);
    // The request has been delivered (its claim is under way) but the run has not begun.
    await new Promise((resolve) => setImmediate(resolve));
    await app.ctx.tasks.idle();
    const events = await app.ctx.store.readStream(`task-${task_id}`);
    expect(events.map((e) => e.type)).to.include('TaskFinished');
  });
});
