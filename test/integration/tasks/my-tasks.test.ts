import { expect } from 'chai';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { QUICK, SLOW, type TaskRecord, registerTestTasks, startAndSettle } from './test-tasks.ts';

describe('GET /me/tasks (the caller’s tasks, newest first, paged)', function () {
  // The first app of a file migrates the template database: slow on a loaded machine.
  this.timeout(120_000);
  let app: TestApp;
  let admin: ApiClient;
  let viewer: { client: ApiClient; username: string };
  const mine: TaskRecord[] = [];

  before(async () => {
    app = await startTestApp();
    registerTestTasks(app);
    admin = await signedInAdmin(app);
    viewer = await signedInAs(app, 'viewer');
    await startAndSettle(app, admin, QUICK, { who: 'someone else' }, 'admin');
    for (const who of ['one', 'two', 'three']) mine.push(await startAndSettle(app, admin, QUICK, { who }, viewer.username));
  });
  after(() => app.close());

  const ids = (items: TaskRecord[]) => items.map((t) => t.task_id);

  it('given tasks of the caller and of others, then it lists only the caller’s, newest first, with the default page', async () => {
    const res = await viewer.client.get('/me/tasks');
    expect(res.status).to.equal(200);
    expect(ids(res.body.items)).to.deep.equal(ids([...mine].reverse()));
    expect(res.body).to.include({ total: 3, page: 1, limit: 20 });
  });

  it('pages with page and limit', async () => {
    const second = await viewer.client.get('/me/tasks?page=2&limit=2');
    expect(ids(second.body.items)).to.deep.equal([mine[0]!.task_id]);
    expect(second.body).to.include({ total: 3, page: 2, limit: 2 });
    expect((await viewer.client.get('/me/tasks?limit=0')).status).to.equal(422);
  });

  it('given a finished task with a known total, then its progress carries percent and eta_seconds', async () => {
    const res = await viewer.client.get('/me/tasks?limit=1');
    expect(res.body.items[0].progress).to.include({ done: 1, total: 1, percent: 100, eta_seconds: 0 });
  });

  it('given a running task without a total, then its progress has no estimate', async () => {
    const running = await startAndSettle(app, admin, SLOW, { max_ms: 60_000 }, viewer.username, (t) => t.progress !== null);
    try {
      const res = await viewer.client.get('/me/tasks?limit=1');
      expect(res.body.items[0]).to.include({ task_id: running.task_id, status: 'running' });
      expect(res.body.items[0].progress).to.not.have.any.keys('percent', 'eta_seconds');
    } finally {
      await admin.post(`/admin/task-history/${running.task_id}/cancel`);
    }
  });

  it('answers 401 without a session', async () => {
    expect((await app.client().get('/me/tasks')).status).to.equal(401);
  });
});
