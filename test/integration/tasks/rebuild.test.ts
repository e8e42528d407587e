import { expect } from 'chai';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { FAILS, QUICK, SLOW, type TaskRecord, pollTask, registerTestTasks, startAndSettle } from './test-tasks.ts';

describe('POST /admin/canonical/rebuild (a real task)', () => {
  let app: TestApp;
  let admin: ApiClient;

  before(async () => {
    app = await startTestApp();
    registerTestTasks(app);
    admin = await signedInAdmin(app);
    await startAndSettle(app, admin, QUICK, { who: 'before the rebuild' });
    await startAndSettle(app, admin, FAILS);
    const slow = await startAndSettle(app, admin, SLOW, {}, 'admin', (t) => t.progress !== null);
    await admin.post(`/admin/task-history/${slow.task_id}/cancel`);
    await pollTask(admin, slow.task_id);
  });
  after(() => app.close());

  const everyTask = async (): Promise<TaskRecord[]> => {
    const res = await admin.get('/admin/task-history?limit=500');
    expect(res.status).to.equal(200);
    return res.body.items;
  };

  it('answers a running task at once, runs to completed with progress and a summary, rebuilds the canonical read models and leaves the task history as it was', async () => {
    const before = await everyTask();
    expect(before).to.have.length(3);

    const res = await admin.post('/admin/canonical/rebuild');
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ name: 'canonical.rebuild', status: 'running' });
    expect(res.body.task_id).to.be.a('string');

    const task = await pollTask(admin, res.body.task_id);
    expect(task).to.include({ status: 'completed', started_by: 'admin', error: null });
    expect(task.progress).to.have.property('processed').that.is.a('number');
    expect(task.progress).to.have.property('total').that.is.a('number');
    expect(task.summary).to.have.property('events_replayed').that.is.a('number').and.is.above(0);
    expect(task.summary!.read_models).to.include.members(['canonical_docs', 'external_refs']).and.not.include('task_history');

    const after = (await everyTask()).filter((t) => t.task_id !== task.task_id);
    expect(after).to.deep.equal(before);
  });

  it('runs two rebuilds asked for at once to completed, with the same read model', async () => {
    const before = await everyTask();
    const [a, b] = await Promise.all([admin.post('/admin/canonical/rebuild'), admin.post('/admin/canonical/rebuild')]);
    const ids = [a.body.task_id as string, b.body.task_id as string];
    for (const id of ids) expect((await pollTask(admin, id)).status).to.equal('completed');
    const after = (await everyTask()).filter((t) => !ids.includes(t.task_id));
    expect(after).to.deep.equal(before);
  });

  it('ends its progress on the figures of its summary, at 100 percent with nothing left to wait', async () => {
    const res = await admin.post('/admin/canonical/rebuild');
    const task = await pollTask(admin, res.body.task_id);
    expect(task.status).to.equal('completed');
    expect(task.progress).to.include({ processed: task.summary!.events_replayed, total: task.summary!.events_replayed, percent: 100, eta_seconds: 0 });
  });

  it('shows the rebuild to the admin who started it under /me/tasks', async () => {
    const res = await admin.post('/admin/canonical/rebuild');
    await pollTask(admin, res.body.task_id);
    const mine = await admin.get(`/me/tasks/${res.body.task_id}`);
    expect(mine.status).to.equal(200);
    expect(mine.body).to.include({ task_id: res.body.task_id, status: 'completed' });
  });

  it('is for admins: 401 without a session, 403 for another role', async () => {
    const viewer = await signedInAs(app, 'viewer');
    expect((await app.client().post('/admin/canonical/rebuild')).status).to.equal(401);
    expect((await viewer.client.post('/admin/canonical/rebuild')).status).to.equal(403);
  });
});
