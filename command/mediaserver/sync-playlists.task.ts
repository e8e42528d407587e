import type { AppContext } from '../../infra/context.ts';
import { log } from '../../infra/logger.ts';
import type { TaskDefinition } from '../../infra/tasks/task.ts';
import { playlistSync } from './playlist-sync.ts';

export const SYNC_PLAYLISTS_TASK = 'mediaserver.sync-playlists';
export const SYNC_ALL_PLAYLISTS_TASK = 'mediaserver.sync-all-playlists';

/** One user's playlists, with their own token. */
export function syncPlaylistsTask(context: () => AppContext): TaskDefinition<{ username: string }> {
  return {
    name: SYNC_PLAYLISTS_TASK,
    run: (task) => playlistSync(context(), task.params.username, { actor: task.startedBy, correlation_id: task.taskId }).all(() => task.checkpoint()),
  };
}

/** Every user with a stored token, one after another; one user's failure (a revoked token) does not stop the others. */
export function syncAllPlaylistsTask(context: () => AppContext): TaskDefinition<Record<string, never>> {
  return {
    name: SYNC_ALL_PLAYLISTS_TASK,
    async run(task) {
      const ctx = context();
      const users = await ctx.db.selectFrom('mediaserver_links').select('username').where('credential_id', 'is not', null).orderBy('username_key').execute();
      const results: Record<string, unknown>[] = [];
      for (const { username } of users) {
        task.checkpoint();
        try {
          results.push(await playlistSync(ctx, username, { actor: task.startedBy, correlation_id: task.taskId }).all(() => task.checkpoint()));
        } catch (error) {
          if (task.signal.aborted) throw error;
          log.warn('mediaserver: playlist sync failed for a user', { username, error: (error as Error).message });
          results.push({ username, error: (error as Error).message });
        }
        await task.progress({ users_done: results.length, users: users.length });
      }
      return { users: users.length, failed: results.filter((r) => 'error' in r).length, results };
    },
  };
}
