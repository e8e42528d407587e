import type { AppContext } from '../../infra/context.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { STREAMER_SYNC_TASK } from '../../shared/streamer.ts';
import { type SyncCursor, storedCursor, syncMirror } from './sync.ts';

export interface SyncParams {
  username: string;
  resume?: SyncCursor;
}

/** One user's sync; after a restart it continues from its last recorded page. */
export function streamerSyncTask(context: () => AppContext): TaskDefinition<SyncParams> {
  return {
    name: STREAMER_SYNC_TASK,
    resumable: true,
    run: (task) =>
      syncMirror(
        context(),
        task.params.username,
        { actor: task.startedBy, taskId: task.taskId, checkpoint: () => task.checkpoint(), progress: (p) => void task.progress(p) },
        storedCursor(task.resumedFrom?.cursor) ?? task.params.resume,
      ),
  };
}
