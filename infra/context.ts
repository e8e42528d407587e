import type { Kysely } from 'kysely';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { Engine } from './db/create-db.ts';
import type { EventStore } from './eventstore/event-store.ts';
import type { SessionResolver } from './auth/session.ts';
import type { ReadModels } from './projections/read-models.ts';
import type { ProjectionRunner } from './projections/runner.ts';
import type { TaskRunner } from './tasks/runner.ts';
import type { Secrets } from './secrets.ts';
import type { AuthServices } from './auth/index.ts';
import type { CommandPorts } from './ports/commands.ts';

/** What handlers and tasks get: the service's ports, built once at start. */
export interface AppContext {
  readonly config: Config;
  readonly secrets: Secrets;
  readonly db: Kysely<Database>;
  readonly engine: Engine;
  readonly store: EventStore;
  readonly tasks: TaskRunner;
  readonly sessions: SessionResolver;
  readonly auth: AuthServices;
  /** What a GET that must write asks of the write side (infra/ports/commands.ts). */
  readonly commands: CommandPorts;
  /** Present in a process with the projector role. */
  readonly projections: ProjectionRunner | undefined;
  /** Mid-flow read-your-writes (a route's own is `defineRoute`'s): see infra/projections/read-models.ts. */
  readonly readModels: ReadModels;
  /** Tests check every response against its declared schema. */
  readonly validateResponses: boolean;
}
