import { expect } from 'chai';
import type { DatabaseHandle } from '../../../infra/db/create-db.ts';
import { type TestApp, startTestApp } from '../../support/api.ts';
import { freshDatabase } from '../../support/database.ts';
import { signedInAdmin } from '../../support/given.ts';
import { HANGS, QUICK, SLOW, type TaskRecord, pollTask, registerTestTasks, startAndSettle } from './test-tasks.ts';

/**
 * A restart on the same database: what the first process left running is resolved by the next
 * start, never left running forever.
 */
describe('tasks across a restart', () => {
  let database: DatabaseHandle;
  let second: TestApp | undefined;
  let hung: TaskRecord;
  let stopped: TaskRecord;
  let completed: TaskRecord;

  /** A restart keeps its secrets (the real service keeps them in DATA_DIR). */
  const env = { SECRET_KEY: 'recovery-test-secret-key-0123456789abcdef', JWT_SECRET: 'recovery-test-jwt-secret-0123456789abcdef' };

  before(async () => {
    database = await freshDatabase();
    const first = await startTestApp(env, database, { keepDatabase: true });
    registerTestTasks(first);
    const admin = await signedInAdmin(first);
    completed = await startAndSettle(first, admin, QUICK);
    stopped = await startAndSettle(first, admin, SLOW, { max_ms: 60_000 }, 'admin', (t) => t.progress !== null);
    // Ignores its signal and never ends: the process goes away without recording its end.
    hung = await startAndSettle(first, admin, HANGS, {}, 'admin', (t) => t.status === 'running');
    first.ctx.tasks.shutdownGraceMs = 300;
    await first.close();
    second = await startTestApp(env, database);
  });
  after(async () => {
    if (second) await second.close();
    else await database.close();
  });

  it('records failed a task the stopped process left running', async () => {
    const admin = await signedInAdmin(second!);
    const task = await pollTask(admin, hung.task_id);
    expect(task.status).to.equal('failed');
    expect(task.error).to.match(/interrupted/);
    expect(task.finished_at).to.be.a('string');
    expect((await admin.get('/admin/task-history/running')).body).to.equal(null);
  });

  it('records failed, not cancelled, a task stopped at a checkpoint by the shutdown', async () => {
    const admin = await signedInAdmin(second!);
    const task = await pollTask(admin, stopped.task_id);
    expect(task).to.include({ status: 'failed', cancel_requested: false });
    expect(task.error).to.match(/interrupted/);
  });

  it('leaves a finished task as it was', async () => {
    const admin = await signedInAdmin(second!);
    expect((await admin.get(`/admin/task-history/${completed.task_id}`)).body).to.deep.equal(completed);
    const list = await admin.get('/admin/task-history');
    expect(list.body.counts_by_status).to.deep.equal({ completed: 1, failed: 2 });
  });
});
