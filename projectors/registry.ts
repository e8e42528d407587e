import type { Projector } from '../infra/projections/projector.ts';
import { usersProjector } from './auth/users.projector.ts';
import { taskHistoryProjector } from './tasks/task-history.projector.ts';

/** Every read model of the service. */
export const projectors: Projector[] = [taskHistoryProjector, usersProjector];

/** What `POST /admin/canonical/rebuild` replays: the read models derived from the log so far. */
export const rebuildableReadModels: string[] = [taskHistoryProjector.name];
