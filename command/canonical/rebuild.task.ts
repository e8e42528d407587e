import type { TaskDefinition } from '../../infra/tasks/task.ts';
import type { RebuildReadModels } from '../../infra/projections/rebuild-port.ts';
import { rebuildableReadModels } from '../../projectors/registry.ts';

export const REBUILD_TASK = 'canonical.rebuild';

/**
 * Replays the log into copies of the canonical read models and swaps them in at the end; until then,
 * and for good when cancelled, the previous ones serve. User data lives in the log too and is never
 * touched; nothing is deleted from the log. Resumable: a worker that takes over the task after its
 * first one died follows the same rebuild (on PostgreSQL) or replays again (embedded, one process).
 */
export function rebuildTask(rebuild: RebuildReadModels): TaskDefinition {
  return {
    name: REBUILD_TASK,
    resumable: true,
    async run(ctx) {
      const started = Date.now();
      // A cancel drops what was replayed: the previous read models keep serving.
      const events = await rebuild(ctx.taskId, rebuildableReadModels, (p) => void ctx.progress({ ...p, read_models: rebuildableReadModels }), ctx.signal);
      // The count taken at the start misses what was appended during the replay: end on the real figures.
      await ctx.progress({ processed: events, total: events, read_models: rebuildableReadModels });
      return { read_models: rebuildableReadModels, events_replayed: events, seconds: (Date.now() - started) / 1000 };
    },
  };
}
