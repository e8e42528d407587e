import { z } from 'zod';

/** A task run as the interface shows it. */
export const TaskRecord = z.object({
  task_id: z.string(),
  name: z.string(),
  status: z.string(),
  started_by: z.string().nullable(),
  params: z.record(z.string(), z.unknown()),
  progress: z.record(z.string(), z.unknown()).nullable(),
  summary: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
  cancel_requested: z.boolean(),
  started_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
}).meta({ id: 'Task' });

/** What an endpoint that starts a background task answers at once. */
export const TaskStartedResponse = z.object({ task_id: z.string(), name: z.string(), status: z.literal('running') }).meta({ id: 'TaskStarted' });

export const TASK_STATUSES = ['running', 'completed', 'failed', 'cancelled'] as const;

/** Statuses a listing can filter on: the runner's, and `fetch_failed`, which backfill families record. */
export const TASK_STATUS_FILTERS = [...TASK_STATUSES, 'fetch_failed'] as const;
