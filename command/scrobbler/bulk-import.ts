import type { AppContext } from '../../infra/context.ts';
import { scrobblerClient } from '../../infra/upstreams/scrobbler/client.ts';
import { accountSinceOrEarliest } from '../../projectors/auth/users.reads.ts';
import { latestTaskStartedBy } from '../../projectors/tasks/task-history.reads.ts';
import { PreconditionFailed } from '../../shared/errors.ts';
import { BULK_IMPORT_TASK } from '../../shared/scrobbles/tasks.ts';
import { oneAtATimePerKey } from '../../shared/one-at-a-time.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { type BulkImportParams, type ImportCursor, storedCursor } from './import-scrobbles.task.ts';
import { currentLink } from './scrobbler-link.ts';

/** Starts per user run one at a time in a process, so a double click starts one import, not two. */
const oneStartAtATime = oneAtATimePerKey();

/** Where the caller's last unfinished import stopped, if it did not complete. */
async function resumeCursor(db: Parameters<typeof latestTaskStartedBy>[0], username: string, since: string): Promise<ImportCursor | undefined> {
  const last = await latestTaskStartedBy(db, BULK_IMPORT_TASK, username, since);
  if (!last || (last.status !== 'cancelled' && last.status !== 'failed')) return undefined;
  return storedCursor(last.summary?.cursor ?? last.progress?.cursor);
}

/**
 * Starts the user's whole-history import, or answers the one running; a cancelled or failed one is
 * continued from the page where it stopped.
 */
export function startBulkImport(ctx: AppContext, username: string) {
  return oneStartAtATime(usernameKey(username), async () => {
    if (!(await currentLink(ctx, username))) throw new PreconditionFailed('Scrobbler not linked');
    scrobblerClient(ctx.config).assertConfigured();
    const since = await accountSinceOrEarliest(ctx.db, username);
    const running = await latestTaskStartedBy(ctx.db, BULK_IMPORT_TASK, username, since, 'running');
    if (running) return { task_id: running.task_id, name: BULK_IMPORT_TASK, status: 'running' as const, resumed_from_page: null };
    const resume = await resumeCursor(ctx.db, username, since);
    const params: BulkImportParams = { username, ...(resume ? { resume } : {}) };
    const { task_id } = await ctx.tasks.start(BULK_IMPORT_TASK, { ...params }, username);
    // The next start in line looks for a running import in the task history: it must see this one.
    await ctx.readModels.catchUp();
    return { task_id, name: BULK_IMPORT_TASK, status: 'running' as const, resumed_from_page: resume ? resume.pages + 1 : null };
  });
}
