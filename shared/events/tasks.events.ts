import { z } from 'zod';

/** The life of a background task, stream `task-<id>`. */
const json = z.record(z.string(), z.unknown());

export const TaskStarted = z.object({
  task_id: z.string(),
  name: z.string(),
  params: json,
  started_by: z.string().nullable(),
  at: z.string(),
});
export const TaskProgressed = z.object({ task_id: z.string(), progress: json, at: z.string() });
export const TaskCancelRequested = z.object({ task_id: z.string(), requested_by: z.string().nullable(), at: z.string() });
export const TaskFinished = z.object({ task_id: z.string(), summary: json, at: z.string() });
export const TaskFailed = z.object({ task_id: z.string(), error: z.string(), at: z.string() });
export const TaskCancelled = z.object({ task_id: z.string(), summary: json, at: z.string() });

export const taskEventSchemas = {
  TaskStarted,
  TaskProgressed,
  TaskCancelRequested,
  TaskFinished,
  TaskFailed,
  TaskCancelled,
} as const;

export type TaskEvent =
  | { type: 'TaskStarted'; data: z.infer<typeof TaskStarted> }
  | { type: 'TaskProgressed'; data: z.infer<typeof TaskProgressed> }
  | { type: 'TaskCancelRequested'; data: z.infer<typeof TaskCancelRequested> }
  | { type: 'TaskFinished'; data: z.infer<typeof TaskFinished> }
  | { type: 'TaskFailed'; data: z.infer<typeof TaskFailed> }
  | { type: 'TaskCancelled'; data: z.infer<typeof TaskCancelled> };
