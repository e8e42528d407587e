import type { ColumnType, Generated } from 'kysely';

/** `cancelled`: the asking task was cancelled; the owner drops the rebuild's copies, the live read models stay. */
export type RebuildRequestState = 'pending' | 'running' | 'done' | 'failed' | 'cancelled';

/** projection_rebuild_requests: a rebuild a worker asked of the process that owns the projections. */
export interface ProjectionRebuildRequestsTable {
  id: string;
  names: ColumnType<string[], string, string>;
  state: RebuildRequestState;
  claimed_by: string | null;
  processed: Generated<number>;
  total: Generated<number>;
  events: number | null;
  error: string | null;
  updated_at: Date;
}
