import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { messageOf } from '../../shared/errors.ts';
import type { Database } from '../db/database.ts';
import { log } from '../logger.ts';
import type { RebuildProgress } from './rebuild-requests.ts';
import type { ProjectionRunner } from './runner.ts';

const POLL_MS = 500;
/** Progress rows are written at most this often: a rebuild reports after every batch. */
const PROGRESS_WRITE_MS = 1000;

/**
 * A rebuild asked of whichever process runs the projections (on PostgreSQL, maybe another one), keyed
 * by the task that asks: a task resumed by another worker after its first one died follows the same
 * request instead of starting a second. Resolves with the events replayed, or throws its failure.
 */
export async function requestRebuild(db: Kysely<Database>, id: string, names: string[], onProgress: (p: RebuildProgress) => void, signal?: AbortSignal): Promise<number> {
  await db
    .insertInto('projection_rebuild_requests')
    .values({ id, names: JSON.stringify(names), state: 'pending', updated_at: new Date() })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  try {
    for (;;) {
      const row = await db.selectFrom('projection_rebuild_requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      if (row.state === 'done') return row.events ?? row.processed;
      if (row.state === 'failed') throw new Error(row.error ?? 'the rebuild failed');
      if (row.state === 'running') onProgress({ processed: row.processed, total: row.total });
      signal?.throwIfAborted();
      await sleep(POLL_MS, undefined, signal ? { signal } : {});
    }
  } catch (error) {
    // The owner sees the cancel at its next look at the request and drops the rebuild's copies.
    if (signal?.aborted) {
      await db
        .updateTable('projection_rebuild_requests')
        .set({ state: 'cancelled', updated_at: new Date() })
        .where('id', '=', id)
        .where('state', 'in', ['pending', 'running'])
        .execute();
    }
    throw error;
  }
}

/**
 * The owner's side: while this process runs the projections, it takes up the requests nobody serves
 * (new ones, and those of an owner that died: replayed again from the start, the read models being
 * disposable) and records their progress and outcome. Returns a stop function.
 */
export function serveRebuildRequests(db: Kysely<Database>, runner: ProjectionRunner, instanceId: string): () => Promise<void> {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      if (runner.running) await takeUp(db, runner, instanceId).catch((error: unknown) => log.warn('projections: could not read rebuild requests', { error: messageOf(error) }));
      await sleep(POLL_MS);
    }
  })();
  return async () => {
    stopped = true;
    await loop;
  };
}

async function takeUp(db: Kysely<Database>, runner: ProjectionRunner, instanceId: string): Promise<void> {
  const rows = await db
    .updateTable('projection_rebuild_requests')
    .set({ state: 'running', claimed_by: instanceId, updated_at: new Date() })
    .where((eb) => eb.or([eb('state', '=', 'pending'), eb.and([eb('state', '=', 'running'), eb('claimed_by', '!=', instanceId)])]))
    .returning(['id', 'names'])
    .execute();
  for (const row of rows) {
    log.info('projections: rebuilding at the request of a task', { task_id: row.id, read_models: row.names });
    let writtenAt = 0;
    const progress = ({ processed, total }: RebuildProgress) => {
      if (Date.now() - writtenAt < PROGRESS_WRITE_MS) return;
      writtenAt = Date.now();
      void record(db, row.id, instanceId, { processed, total });
    };
    const cancelled = watchForCancel(db, row.id);
    void runner
      .rebuild(row.names, progress, cancelled.signal)
      .then(
        (events) => record(db, row.id, instanceId, { state: 'done', events, processed: events }),
        (error: unknown) => (cancelled.signal.aborted ? undefined : record(db, row.id, instanceId, { state: 'failed', error: messageOf(error) })),
      )
      .finally(() => cancelled.stop());
  }
}

/** Aborts once the asking task has marked the request cancelled. */
function watchForCancel(db: Kysely<Database>, id: string): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  const timer = setInterval(() => {
    db.selectFrom('projection_rebuild_requests')
      .select('state')
      .where('id', '=', id)
      .executeTakeFirst()
      .then((row) => (row?.state === 'cancelled' ? controller.abort(new Error('the rebuild was cancelled')) : undefined))
      .catch(() => undefined);
  }, POLL_MS);
  return { signal: controller.signal, stop: () => clearInterval(timer) };
}

/** Writes a request's progress or outcome, as long as this process still serves it. */
async function record(db: Kysely<Database>, id: string, instanceId: string, fields: Partial<{ state: 'done' | 'failed'; processed: number; total: number; events: number; error: string }>): Promise<void> {
  await db
    .updateTable('projection_rebuild_requests')
    .set({ ...fields, updated_at: new Date() })
    .where('id', '=', id)
    .where('claimed_by', '=', instanceId)
    .where('state', '=', 'running')
    .execute()
    .catch((error: unknown) => log.warn('projections: could not record a rebuild request', { task_id: id, error: messageOf(error) }));
}
