import { rebuildTask } from '../../command/canonical/rebuild.task.ts';
import { syncAllTask, syncLibraryTask } from '../../command/mediaserver/sync-library.task.ts';
import { syncAllPlaylistsTask, syncPlaylistsTask } from '../../command/mediaserver/sync-playlists.task.ts';
import type { AppContext } from '../context.ts';
import type { ProjectionRunner } from '../projections/runner.ts';
import type { TaskDefinition } from './task.ts';

/** Every background task of the service; `context` is the service's, once built (tasks run after that). */
export function taskDefinitions(deps: { projections: ProjectionRunner | undefined; context: () => AppContext }): TaskDefinition<any>[] {
  return [rebuildTask(deps.projections), syncLibraryTask(deps.context), syncAllTask(deps.context), syncPlaylistsTask(deps.context), syncAllPlaylistsTask(deps.context)];
}
