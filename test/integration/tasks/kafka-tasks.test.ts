import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DatabaseHandle } from '../../../infra/db/create-db.ts';
import { type ApiClient, type TestApp, startTestApp } from '../../support/api.ts';
import { freshDatabase } from '../../support/database.ts';
import { signedInAdmin } from '../../support/given.ts';
import { type KafkaDouble, startKafkaDouble } from '../../fakes/kafka/server.ts';
import { pollTask } from './test-tasks.ts';

const TALLIED = 'test.tallied';
const SHARED_GROUP = 'music-library-tasks.requested';

/**
 * The task bus on the wire: an `api,projector` process hands tasks to two `worker` processes through
 * a Kafka broker (the double, spoken to by kafkajs), all on one database. The api process runs no
 * task itself, so whatever runs went through Kafka.
 */
describe('tasks over Kafka, two workers', () => {
  let double: KafkaDouble;
  let database: DatabaseHandle;
  let api: TestApp;
  const workers: TestApp[] = [];
  let admin: ApiClient;
  /** `worker:task_id` for every run, whichever worker ran it. */
  const runs: string[] = [];

  /** A task that notes which worker ran it and, when asked, keeps going until cancelled. */
  function registerTallied(app: TestApp, worker: string): void {
    app.ctx.tasks.register({
      name: TALLIED,
      async run(ctx) {
        runs.push(`${worker}:${ctx.taskId}`);
        while (ctx.params.until_cancelled) {
          ctx.checkpoint();
          await ctx.progress({ worker });
          await sleep(20);
        }
        return { worker };
      },
    });
  }

  // Three services (and, when this file is a mocha worker's first, the database template) to start.
  before(async function () {
    this.timeout(90_000);
    double = await startKafkaDouble();
    database = await freshDatabase();
    const env = { KAFKA_BROKERS: double.broker };
    api = await startTestApp({ ...env, ROLES: 'api,projector' }, database, { keepDatabase: true });
    registerTallied(api, 'api');
    for (const name of ['w1', 'w2']) {
      const worker = await startTestApp({ ...env, ROLES: 'worker' }, database, { keepDatabase: true });
      registerTallied(worker, name);
      workers.push(worker);
    }
    await double.groupSettled(SHARED_GROUP, 2);
    admin = await signedInAdmin(api);
  });
  after(async () => {
    for (const app of [...workers, api]) await app?.close();
    await database?.close();
    await double?.close();
  });

  it('runs each requested task exactly once, spread over both workers', async () => {
    const started = await Promise.all(Array.from({ length: 16 }, () => api.ctx.tasks.start(TALLIED, {}, 'admin')));
    const ids = started.map((s) => s.task_id);
    for (const id of ids) expect(await pollTask(admin, id)).to.include({ status: 'completed' });
    await sleep(300); // a second run would show up here
    const ranIds = runs.map((r) => r.split(':')[1]);
    expect([...ranIds].sort()).to.deep.equal([...ids].sort());
    expect(runs.filter((r) => r.startsWith('w1:'))).not.to.be.empty;
    expect(runs.filter((r) => r.startsWith('w2:'))).not.to.be.empty;
    expect(runs.filter((r) => r.startsWith('api:'))).to.be.empty;
    const requested = double.records('music-library.tasks.requested').map((r) => JSON.parse(r.value!.toString()) as { task_id: string; name: string });
    expect(requested.map((r) => r.task_id).sort()).to.deep.equal([...ids].sort());
  });

  it('carries a cancel from the api process to the worker running the task', async () => {
    const { task_id } = await api.ctx.tasks.start(TALLIED, { until_cancelled: true }, 'admin');
    const running = await pollTask(admin, task_id, (t) => t.progress !== null);
    const worker = String(running.progress!.worker);
    expect(worker).to.match(/^w[12]$/);
    const res = await admin.post(`/admin/task-history/${task_id}/cancel`);
    expect(res.body).to.deep.equal({ task_id, was_running: true });
    const ended = await pollTask(admin, task_id);
    expect(ended).to.include({ status: 'cancelled', cancel_requested: true, error: null });
    expect(ended.progress).to.deep.equal({ worker });
    const cancels = double.records('music-library.tasks.cancel').map((r) => r.key?.toString());
    expect(cancels).to.include(task_id);
  });

  it('hands every new task to the remaining worker once the other has stopped', async () => {
    await workers.pop()!.close();
    await double.groupSettled(SHARED_GROUP, 1);
    runs.length = 0;
    const started = await Promise.all(Array.from({ length: 6 }, () => api.ctx.tasks.start(TALLIED, {}, 'admin')));
    for (const { task_id } of started) expect(await pollTask(admin, task_id)).to.include({ status: 'completed' });
    expect(runs.map((r) => r.split(':')[0])).to.deep.equal(Array(6).fill('w1'));
  });
});
