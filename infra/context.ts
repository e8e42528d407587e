import type { Kysely } from 'kysely';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { Engine } from './db/create-db.ts';
import type { EventStore, Position } from './eventstore/event-store.ts';
import type { SessionResolver } from './http/auth.ts';
import type { ProjectionRunner } from './projections/runner.ts';
import type { TaskRunner } from './tasks/runner.ts';
import type { Secrets } from './secrets.ts';
import type { AuthServices } from './auth/index.ts';

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
  /** Present in a process with the projector role. */
  readonly projections: ProjectionRunner | undefined;
  /** Read-your-writes: waits (bounded) until the read models include a position. */
  settle(position: Position | undefined): Promise<void>;
  /**
   * Waits (bounded, shorter) until this process's reactors have handled a position, so that a
   * write whose effect a reactor carries upstream (a favorite into the media server's playlist)
   * answers once that effect is done. Without reactors in this process it returns at once.
   */
  settleReactions(position: Position | undefined): Promise<void>;
  /** Tests check every response against its declared schema. */
  readonly validateResponses: boolean;
}
