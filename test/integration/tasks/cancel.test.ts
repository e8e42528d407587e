import { expect } from 'chai';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { QUICK, SLOW, WAITS, pollTask, registerTestTasks, startAndSettle } from './test-tasks.ts';

describe('POST /admin/task-history/{task_id}/cancel', () => {
  let app: TestApp;
  let admin: ApiClient;

  before(async () => {
    app = await startTestApp();
    registerTestTasks(app);
    admin = await signedInAdmin(app);
  });
  after(() => app.close());

  it('stops a running task at its next checkpoint and records it cancelled, not failed', async () => {
    const running = await startAndSettle(app, admin, SLOW, {}, 'admin', (t) => t.progress !== null);
    const res = await admin.post(`/admin/task-history/${running.task_id}/cancel`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ task_id: running.task_id, was_running: true });
    const ended = await pollTask(admin, running.task_id);
    expect(ended).to.include({ status: 'cancelled', cancel_requested: true, error: null });
    expect(ended.finished_at).to.be.a('string');
    expect(ended.progress).to.include({ of: 'many' });
    const failed = await admin.get('/admin/task-history?status=failed');
    expect(failed.body.items.map((t: { task_id: string }) => t.task_id)).not.to.include(running.task_id);
  });

  it('records cancelled a task that stops in an await aborted by its signal', async () => {
    const { task_id } = await app.ctx.tasks.start(WAITS, {}, 'admin');
    await pollTask(admin, task_id, (t) => t.status === 'running');
    expect((await admin.post(`/admin/task-history/${task_id}/cancel`)).body.was_running).to.equal(true);
    expect(await pollTask(admin, task_id)).to.include({ status: 'cancelled', error: null });
  });

  it('cancels a task asked to stop right after it started', async () => {
    const { task_id } = await app.ctx.tasks.start(SLOW, { max_ms: 2_000 }, 'admin');
    const res = await admin.post(`/admin/task-history/${task_id}/cancel`);
    expect(res.body.was_running).to.equal(true);
    expect(await pollTask(admin, task_id)).to.include({ status: 'cancelled' });
  });

  it('answers was_running false for a finished task and leaves it unchanged', async () => {
    const done = await startAndSettle(app, admin, QUICK);
    expect(done.status).to.equal('completed');
    const res = await admin.post(`/admin/task-history/${done.task_id}/cancel`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ task_id: done.task_id, was_running: false });
    expect((await admin.get(`/admin/task-history/${done.task_id}`)).body).to.deep.equal(done);
  });

  it('answers was_running false to a second cancel, and the task stays cancelled', async () => {
    const running = await startAndSettle(app, admin, SLOW, {}, 'admin', (t) => t.progress !== null);
    await admin.post(`/admin/task-history/${running.task_id}/cancel`);
    const cancelled = await pollTask(admin, running.task_id);
    const again = await admin.post(`/admin/task-history/${running.task_id}/cancel`);
    expect(again.body).to.deep.equal({ task_id: running.task_id, was_running: false });
    expect((await admin.get(`/admin/task-history/${running.task_id}`)).body).to.deep.equal(cancelled);
  });

  it('answers 404 for an unknown task', async () => {
    const res = await admin.post('/admin/task-history/01HZZZZZZZZZZZZZZZZZZZZZZZ/cancel');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ detail: 'Task not found' });
  });

  it('is for admins: 401 without a session, 403 for another role, and the task keeps running', async () => {
    const running = await startAndSettle(app, admin, SLOW, { max_ms: 60_000 }, 'admin', (t) => t.progress !== null);
    const viewer = await signedInAs(app, 'viewer');
    expect((await app.client().post(`/admin/task-history/${running.task_id}/cancel`)).status).to.equal(401);
    expect((await viewer.client.post(`/admin/task-history/${running.task_id}/cancel`)).status).to.equal(403);
    expect((await admin.get(`/admin/task-history/${running.task_id}`)).body).to.include({ status: 'running', cancel_requested: false });
    await admin.post(`/admin/task-history/${running.task_id}/cancel`);
    await pollTask(admin, running.task_id);
  });
});
