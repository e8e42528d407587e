import { migrateTask } from '../../command/canonical/migrate.task.ts';
import { rebuildTask } from '../../command/canonical/rebuild.task.ts';
import type { AppContext } from '../context.ts';
import type { ProjectionRunner } from '../projections/runner.ts';
import type { TaskDefinition } from './task.ts';

/** Every background task of the service. `app` answers the context once the service has built it. */
export function taskDefinitions(deps: { projections: ProjectionRunner | undefined; app: () => AppContext }): TaskDefinition<any>[] {
  return [rebuildTask(deps.projections), migrateTask(deps.app)];
}
