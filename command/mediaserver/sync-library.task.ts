import type { AppContext } from '../../infra/context.ts';
import { log } from '../../infra/logger.ts';
import type { TaskContext, TaskDefinition } from '../../infra/tasks/task.ts';
import { mediaserverClients } from '../../infra/upstreams/mediaserver/client.ts';
import { refreshLibraries } from './libraries.ts';
import { type SyncRun, syncSection } from './library-sync.ts';

export const SYNC_LIBRARY_TASK = 'mediaserver.sync-library';
export const SYNC_ALL_TASK = 'mediaserver.sync-all';

/** Section types a sync walks; the rest (photos, other agents) have nothing the service mirrors. */
export const SYNCABLE = new Set(['artist', 'movie', 'show']);

const runOf = (task: TaskContext<any>): SyncRun => ({
  actor: task.startedBy,
  taskId: task.taskId,
  checkpoint: () => task.checkpoint(),
  progress: (p) => void task.progress(p),
});

/** One library section, by its id on the server. */
export function syncLibraryTask(context: () => AppContext): TaskDefinition<{ section_id: string; quick: boolean }> {
  return {
    name: SYNC_LIBRARY_TASK,
    async run(task) {
      const ctx = context();
      const { serverId, sections } = await refreshLibraries(ctx, task.startedBy, task.taskId);
      const section = sections.find((s) => s.key === String(task.params.section_id));
      if (!section) throw new Error(`the media server has no library section ${task.params.section_id}`);
      return syncSection(ctx, mediaserverClients(ctx).server(), serverId, section, Boolean(task.params.quick), runOf(task));
    },
  };
}

/** Every section, one after another; a section that fails is reported and the others still run. */
export function syncAllTask(context: () => AppContext): TaskDefinition<{ quick: boolean }> {
  return {
    name: SYNC_ALL_TASK,
    async run(task) {
      const ctx = context();
      const quick = Boolean(task.params.quick);
      const { serverId, sections } = await refreshLibraries(ctx, task.startedBy, task.taskId);
      const results: Record<string, unknown>[] = [];
      for (const section of sections.filter((s) => SYNCABLE.has(s.type))) {
        task.checkpoint();
        try {
          results.push(await syncSection(ctx, mediaserverClients(ctx).server(), serverId, section, quick, runOf(task)));
        } catch (error) {
          if (task.signal.aborted) throw error;
          log.warn('mediaserver: section sync failed', { section_id: section.key, error: String(error) });
          results.push({ section_id: section.key, section_type: section.type, error: error instanceof Error ? error.message : String(error) });
        }
      }
      return { server_id: serverId, quick, sections: results, failed: results.filter((r) => 'error' in r).length };
    },
  };
}
