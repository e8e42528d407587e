import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/database.ts';

/** How long a lease lasts without a renewal: a killed worker's tasks are taken over about this long after. */
export const LEASE_MS = 5000;
/** How often a worker renews the leases of the tasks it runs. */
export const RENEW_MS = 1500;

/** `fresh`: nobody ran the task before; `taken-over`: its worker stopped renewing (killed, stopped, lost). */
export type Claimed = 'fresh' | 'taken-over';

/** A task found running in the history whose lease has run out, or that no worker ever took. */
export interface Orphan {
  task_id: string;
  name: string;
  params: Record<string, unknown>;
  started_by: string | null;
  progress: Record<string, unknown> | null;
}

/**
 * Which worker runs which task, on the database every worker shares: a lease row per task, renewed
 * while the task runs. Times are the database's, so the workers' clocks need not agree.
 */
export class TaskLeases {
  constructor(
    private readonly db: Kysely<Database>,
    readonly owner: string,
  ) {}

  /**
   * Takes a task's lease when nobody holds it (or, with `force`, whoever held it: one process alone
   * after a restart). Answers how it was taken, or undefined while another worker holds it.
   */
  async claim(taskId: string, force = false): Promise<Claimed | undefined> {
    const { rows } = await sql<{ inserted: boolean }>`
      insert into task_leases (task_id, owner, expires_at) values (${taskId}, ${this.owner}, now() + ${`${LEASE_MS} milliseconds`}::interval)
      on conflict (task_id) do update set owner = excluded.owner, expires_at = excluded.expires_at
      where task_leases.expires_at < now() or ${force}
      returning (xmax = 0) as inserted`.execute(this.db);
    if (rows.length === 0) return undefined;
    return rows[0]!.inserted ? 'fresh' : 'taken-over';
  }

  /** Renews the leases of `taskIds`; answers those this worker no longer holds. */
  async renew(taskIds: string[]): Promise<string[]> {
    if (taskIds.length === 0) return [];
    const held = await this.db
      .updateTable('task_leases')
      .set({ expires_at: sql`now() + ${`${LEASE_MS} milliseconds`}::interval` })
      .where('owner', '=', this.owner)
      .where('task_id', 'in', taskIds)
      .returning('task_id')
      .execute();
    const renewed = new Set(held.map((r) => r.task_id));
    return taskIds.filter((id) => !renewed.has(id));
  }

  /** The task ended: a redelivered request finds no lease, then the task's end in its stream. */
  async release(taskId: string): Promise<void> {
    await this.db.deleteFrom('task_leases').where('task_id', '=', taskId).where('owner', '=', this.owner).execute();
  }

  /** The task stopped with the process but is not over: any worker may take it over at once. */
  async expire(taskId: string): Promise<void> {
    await this.db.updateTable('task_leases').set({ expires_at: sql`now()` }).where('task_id', '=', taskId).where('owner', '=', this.owner).execute();
  }

  /** Running tasks (as the history has them) that no worker holds. */
  async orphans(): Promise<Orphan[]> {
    const rows = await this.db
      .selectFrom('task_history')
      .leftJoin('task_leases', 'task_leases.task_id', 'task_history.task_id')
      .select(['task_history.task_id', 'task_history.name', 'task_history.params', 'task_history.started_by', 'task_history.progress'])
      .where('task_history.status', '=', 'running')
      .where((eb) => eb.or([eb('task_leases.task_id', 'is', null), eb('task_leases.expires_at', '<', sql<Date>`now()`)]))
      .execute();
    return rows;
  }
}
