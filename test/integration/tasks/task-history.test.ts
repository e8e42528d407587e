import { expect } from 'chai';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { signedInAdmin, signedInAs } from '../../support/given.ts';
import { FAILS, QUICK, SLOW, type TaskRecord, pollTask, registerTestTasks, startAndSettle } from './test-tasks.ts';

describe('task history (GET /admin/task-history…, GET /me/tasks/{task_id})', () => {
  let app: TestApp;
  let admin: ApiClient;
  /** The runs of this file, oldest first. */
  const runs: TaskRecord[] = [];
  let slow: TaskRecord;

  before(async () => {
    app = await startTestApp();
    registerTestTasks(app);
    admin = await signedInAdmin(app);
    runs.push(await startAndSettle(app, admin, QUICK, { who: 'first' }));
    runs.push(await startAndSettle(app, admin, FAILS));
    runs.push(await startAndSettle(app, admin, QUICK, { who: 'second' }));
    const toCancel = await startAndSettle(app, admin, SLOW, {}, 'admin', (t) => t.progress !== null);
    expect((await admin.post(`/admin/task-history/${toCancel.task_id}/cancel`)).status).to.equal(200);
    runs.push(await pollTask(admin, toCancel.task_id));
    slow = await startAndSettle(app, admin, SLOW, { max_ms: 60_000 }, 'admin', (t) => t.progress !== null);
    runs.push(slow);
  });
  after(() => app.close());

  const ids = (items: TaskRecord[]) => items.map((t) => t.task_id);
  const newestFirst = () => ids([...runs].reverse());

  describe('the listing', () => {
    it('lists every run newest first, with the default page and limit', async () => {
      const res = await admin.get('/admin/task-history');
      expect(res.status).to.equal(200);
      expect(ids(res.body.items)).to.deep.equal(newestFirst());
      expect(res.body).to.include({ total: 5, page: 1, limit: 50 });
    });

    it('always carries the distinct names and the counts by status', async () => {
      const res = await admin.get('/admin/task-history');
      expect(res.body.names).to.deep.equal([FAILS, QUICK, SLOW]);
      expect(res.body.counts_by_status).to.deep.equal({ completed: 2, failed: 1, cancelled: 1, running: 1 });
    });

    it('pages with page and limit', async () => {
      const pages = await Promise.all([1, 2, 3, 4].map((page) => admin.get(`/admin/task-history?page=${page}&limit=2`)));
      expect(pages.map((p) => p.status)).to.deep.equal([200, 200, 200, 200]);
      expect(pages.map((p) => ids(p.body.items))).to.deep.equal([newestFirst().slice(0, 2), newestFirst().slice(2, 4), newestFirst().slice(4), []]);
      for (const [i, p] of pages.entries()) expect(p.body).to.include({ total: 5, page: i + 1, limit: 2 });
      expect(pages[3]!.body.names).to.have.length(3);
      expect(pages[3]!.body.counts_by_status).to.deep.equal({ completed: 2, failed: 1, cancelled: 1, running: 1 });
    });

    it('filters by name; names still lists every name, counts are those of the name', async () => {
      const res = await admin.get(`/admin/task-history?name=${QUICK}`);
      expect(res.status).to.equal(200);
      expect(ids(res.body.items)).to.deep.equal([runs[2]!.task_id, runs[0]!.task_id]);
      expect(res.body.total).to.equal(2);
      expect(res.body.names).to.deep.equal([FAILS, QUICK, SLOW]);
      expect(res.body.counts_by_status).to.deep.equal({ completed: 2 });
    });

    it('filters by status, and by name and status together', async () => {
      const failed = await admin.get('/admin/task-history?status=failed');
      expect(ids(failed.body.items)).to.deep.equal([runs[1]!.task_id]);
      expect(failed.body.total).to.equal(1);
      expect(failed.body.counts_by_status).to.deep.equal({ completed: 2, failed: 1, cancelled: 1, running: 1 });
      const both = await admin.get(`/admin/task-history?name=${SLOW}&status=cancelled`);
      expect(ids(both.body.items)).to.deep.equal([runs[3]!.task_id]);
      expect(both.body.counts_by_status).to.deep.equal({ cancelled: 1, running: 1 });
    });

    it('answers an empty page, not an error, for a name nobody ran', async () => {
      const res = await admin.get('/admin/task-history?name=nothing.like.this');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ items: [], total: 0, counts_by_status: {} });
      expect(res.body.names).to.deep.equal([FAILS, QUICK, SLOW]);
    });

    it('refuses bad paging and an unknown status with 422', async () => {
      for (const query of ['limit=0', 'limit=abc', 'page=0', 'status=exploded']) {
        const res = await admin.get(`/admin/task-history?${query}`);
        expect(res.status, query).to.equal(422);
        expect(res.body.detail[0].loc, query).to.deep.equal(['query', query.split('=')[0]]);
      }
    });
  });

  describe('the running task of a family', () => {
    it('answers the running task whose name starts with the prefix', async () => {
      const res = await admin.get('/admin/task-history/running?name_prefix=test.sl');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ task_id: slow.task_id, status: 'running', name: SLOW });
    });

    it('answers null when no task of the family runs', async () => {
      for (const prefix of [QUICK, 'nothing']) {
        const res = await admin.get(`/admin/task-history/running?name_prefix=${prefix}`);
        expect(res.status, prefix).to.equal(200);
        expect(res.body, prefix).to.equal(null);
      }
    });
  });

  describe('one run', () => {
    it('shows a completed run with its progress and summary', async () => {
      const res = await admin.get(`/admin/task-history/${runs[0]!.task_id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({
        task_id: runs[0]!.task_id,
        name: QUICK,
        status: 'completed',
        started_by: 'admin',
        params: { who: 'first' },
        progress: { done: 1, total: 1, percent: 100, eta_seconds: 0 },
        summary: { greeting: 'hello first', items: 3 },
        error: null,
        cancel_requested: false,
      });
      expect(Date.parse(res.body.finished_at)).to.be.at.least(Date.parse(res.body.started_at));
    });

    it('shows a failed run with its error', async () => {
      const res = await admin.get(`/admin/task-history/${runs[1]!.task_id}`);
      expect(res.body).to.deep.include({ status: 'failed', error: 'the upstream said no', summary: null });
      expect(res.body.finished_at).to.be.a('string');
    });

    it('shows a running one with its progress and no end', async () => {
      const res = await admin.get(`/admin/task-history/${slow.task_id}`);
      expect(res.body).to.include({ status: 'running', finished_at: null });
      expect(res.body.progress).to.include({ of: 'many' });
    });

    it('answers 404 for an unknown id', async () => {
      const res = await admin.get('/admin/task-history/01HZZZZZZZZZZZZZZZZZZZZZZZ');
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ detail: 'Task not found' });
    });
  });

  describe('access', () => {
    it('is for admins: 401 without a session, 403 for another role', async () => {
      const viewer = await signedInAs(app, 'viewer');
      for (const path of ['/admin/task-history', '/admin/task-history/running', `/admin/task-history/${slow.task_id}`]) {
        expect((await app.client().get(path)).status, path).to.equal(401);
        expect((await viewer.client.get(path)).status, path).to.equal(403);
      }
    });
  });

  describe('GET /me/tasks/{task_id}', () => {
    it("shows the caller's own task in the admin detail's shape", async () => {
      const starter = await signedInAs(app, 'viewer');
      const task = await startAndSettle(app, admin, QUICK, { who: starter.username }, starter.username);
      const res = await starter.client.get(`/me/tasks/${task.task_id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal((await admin.get(`/admin/task-history/${task.task_id}`)).body);
      expect(res.body).to.include({ started_by: starter.username, status: 'completed' });
    });

    it("answers 404 for another user's task, even to an admin, and for an unknown id", async () => {
      const starter = await signedInAs(app, 'staff');
      const other = await signedInAs(app, 'viewer');
      const task = await startAndSettle(app, admin, QUICK, {}, starter.username);
      expect((await other.client.get(`/me/tasks/${task.task_id}`)).status).to.equal(404);
      expect((await admin.get(`/me/tasks/${task.task_id}`)).status).to.equal(404);
      expect((await starter.client.get('/me/tasks/no-such-task')).status).to.equal(404);
      expect((await starter.client.get(`/me/tasks/${task.task_id}`)).status).to.equal(200);
    });

    it('answers 401 without a session', async () => {
      const res = await app.client().get(`/me/tasks/${runs[0]!.task_id}`);
      expect(res.status).to.equal(401);
      expect(res.body).to.have.keys('detail');
    });
  });
});
