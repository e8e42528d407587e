import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient, TestApp } from '../../support/api.ts';

/** Test-only task definitions, registered on a running app's task runner. */
export const SLOW = 'test.slow';
export const QUICK = 'test.quick';
export const FAILS = 'test.fails';
/** Awaits a long sleep with the task's signal instead of checkpointing. */
export const WAITS = 'test.waits';
/** Ignores cancels and checkpoints and never ends: a task a crash would leave behind. */
export const HANGS = 'test.hangs';

export function registerTestTasks(app: TestApp): void {
  const { tasks } = app.ctx;
  tasks.register({
    name: SLOW,
    async run(ctx) {
      const maxMs = Number(ctx.params.max_ms ?? 30_000);
      const started = Date.now();
      let steps = 0;
      while (Date.now() - started < maxMs) {
        ctx.checkpoint();
        await ctx.progress({ steps, of: 'many' });
        await sleep(10);
        steps += 1;
      }
      return { steps };
    },
  });
  tasks.register({
    name: QUICK,
    async run(ctx) {
      await ctx.progress({ done: 1, total: 1 });
      return { greeting: `hello ${String(ctx.params.who ?? 'nobody')}`, items: 3 };
    },
  });
  tasks.register({
    name: FAILS,
    async run() {
      await sleep(5);
      throw new Error('the upstream said no');
    },
  });
  tasks.register({
    name: WAITS,
    async run(ctx) {
      await sleep(60_000, undefined, { signal: ctx.signal });
      return {};
    },
  });
  tasks.register({
    name: HANGS,
    run: () => new Promise(() => {}),
  });
}

export type TaskRecord = {
  task_id: string;
  name: string;
  status: string;
  started_by: string | null;
  params: Record<string, unknown>;
  progress: Record<string, unknown> | null;
  summary: Record<string, unknown> | null;
  error: string | null;
  cancel_requested: boolean;
  started_at: string;
  updated_at: string;
  finished_at: string | null;
};

/**
 * Polls a task's detail as the client does, until `done` holds. A 404 counts as "not there yet"
 * (the read model may lag, or be rebuilding); any other status fails at once.
 */
export async function pollTask(client: ApiClient, taskId: string, done: (t: TaskRecord) => boolean = (t) => t.status !== 'running', timeoutMs = 10_000): Promise<TaskRecord> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const res = await client.get(`/admin/task-history/${taskId}`);
    if (res.status !== 200 && res.status !== 404) throw new Error(`task detail answered ${res.status}: ${JSON.stringify(res.body)}`);
    last = res.body;
    if (res.status === 200 && done(res.body)) return res.body;
    if (Date.now() > deadline) throw new Error(`task ${taskId} did not get there in ${timeoutMs} ms; last seen ${JSON.stringify(last)}`);
    await sleep(20);
  }
}

/** Starts a test task as `username` and waits until the admin listing shows its outcome (or that it runs). */
export async function startAndSettle(app: TestApp, admin: ApiClient, name: string, params: Record<string, unknown> = {}, username: string | null = 'admin', until?: (t: TaskRecord) => boolean): Promise<TaskRecord> {
  const { task_id } = await app.ctx.tasks.start(name, params, username);
  return pollTask(admin, task_id, until);
}
