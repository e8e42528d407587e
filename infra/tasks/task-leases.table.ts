/** task_leases: which worker runs a task, until when (renewed while it runs). */
export interface TaskLeasesTable {
  task_id: string;
  owner: string;
  expires_at: Date;
}
