import type { AppContext } from '../../infra/context.ts';
import { linkedAccount } from '../../projectors/streamer/links.reads.ts';
import { latestTaskStartedBy } from '../../projectors/tasks/task-history.reads.ts';
import { STREAMER_SYNC_TASK } from '../../shared/streamer.ts';
import { oneAtATimePerKey } from '../../shared/one-at-a-time.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { streamerLink } from './link.ts';
import { storedCursor } from './sync.ts';
import type { SyncParams } from './sync.task.ts';

/** Starts per user run one at a time in a process, so a double click starts one sync, not two. */
const oneStartAtATime = oneAtATimePerKey();

/**
 * Starts the user's sync, or answers the one running; a cancelled or failed one of the same link
 * is continued from the page where it stopped.
 */
export function startSync(ctx: AppContext, username: string) {
  return oneStartAtATime(usernameKey(username), async () => {
    await streamerLink(ctx).session(username);
    const since = (await linkedAccount(ctx.db, username))?.linked_at.toISOString() ?? '';
    const running = await latestTaskStartedBy(ctx.db, STREAMER_SYNC_TASK, username, since, 'running');
    if (running) return { task_id: running.task_id, name: STREAMER_SYNC_TASK, status: 'running' as const, resumed_from_phase: null };
    const last = await latestTaskStartedBy(ctx.db, STREAMER_SYNC_TASK, username, since);
    const resume = last && (last.status === 'cancelled' || last.status === 'failed') ? storedCursor(last.summary?.cursor ?? last.progress?.cursor) : undefined;
    const params: SyncParams = { username, ...(resume ? { resume } : {}) };
    const { task_id } = await ctx.tasks.start(STREAMER_SYNC_TASK, { ...params }, username);
    // The next start in line looks for a running sync in the task history: it must see this one.
    await ctx.readModels.catchUp();
    return { task_id, name: STREAMER_SYNC_TASK, status: 'running' as const, resumed_from_phase: resume?.phase ?? null };
  });
}
