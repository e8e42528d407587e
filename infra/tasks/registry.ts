import { rebuildTask } from '../../command/canonical/rebuild.task.ts';
import type { ProjectionRunner } from '../projections/runner.ts';
import type { TaskDefinition } from './task.ts';

/** Every background task of the service. */
export function taskDefinitions(deps: { projections: ProjectionRunner | undefined }): TaskDefinition<any>[] {
  return [rebuildTask(deps.projections)];
}
