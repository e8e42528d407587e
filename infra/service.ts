import type { Server } from 'node:http';
import type { Express } from 'express';
import { projectors as readModels } from '../projectors/registry.ts';
import type { Bus } from './bus/bus.ts';
import { createInProcessBus } from './bus/in-process.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { type DatabaseHandle, type Engine, openDatabase } from './db/create-db.ts';
import { startEmbeddedMaintenance } from './db/embedded-maintenance.ts';
import { migrate } from './db/migrations/index.ts';
import { appendedTypes, lastAppended, recordingAppends } from './eventstore/append-log.ts';
import type { EventStore } from './eventstore/event-store.ts';
import { createPostgresEventStore } from './eventstore/postgres/postgres-event-store.ts';
import { createApp } from './http/app.ts';
import { type HttpTimeouts, HTTP_TIMEOUTS, createHttpServer, drain, listen } from './http/server.ts';
import { RequestActivity } from './http/request-activity.ts';
import { log } from './logger.ts';
import { ProjectionRunner, type RunnerOptions } from './projections/runner.ts';
import { unitOfWork } from './projections/read-models.ts';
import { pollForPosition } from './projections/wait-for-position.ts';
import { type Projector, projectorsHandling } from './projections/projector.ts';
import { routes } from './routes.ts';
import { commandPorts } from './commands.ts';
import type { CommandPorts } from './ports/commands.ts';
import { loadSecrets } from './secrets.ts';
import { resealLegacyCredentials } from './credentials/reseal.ts';
import { createAuthServices } from './auth/index.ts';
import { bootstrapAdmin } from '../command/auth/bootstrap-admin.ts';
import { usernameKey } from '../shared/usernames.ts';
import { taskDefinitions, taskSchedules } from './tasks/registry.ts';
import { startSchedules } from './tasks/schedule.ts';
import { TaskRunner } from './tasks/runner.ts';
import { type RunningReactor, reactorOwnership, startReactor } from './reactors/reactor.ts';
import { reactors } from './reactors/registry.ts';
import { type Ownership, lockOwnership } from './db/lock-ownership.ts';
import { requestRebuild, serveRebuildRequests } from './projections/shared-rebuilds.ts';
import type { RebuildReadModels } from './projections/rebuild-port.ts';
import { instanceId } from './instance.ts';
import { revocationChannel } from './auth/revocation-channel.ts';
import type { Kysely } from 'kysely';
import type { Database } from './db/database.ts';

const CATCH_UP_TIMEOUT_MS = 5000;
/** A reaction waits on an upstream: past this the answer goes out and the reaction finishes on its own. */
const REACTION_CATCH_UP_TIMEOUT_MS = 3000;
/** At a stop, requests in flight get this long to finish before their connections are cut. */
const DRAIN_MS = 10_000;

export interface ServiceOptions {
  /** An already open database (tests hand in a clone of a migrated template); the caller closes it. */
  database?: DatabaseHandle;
  /** The database being opened for this service (started before its modules load); the service closes it. */
  opening?: Promise<DatabaseHandle>;
  validateResponses?: boolean;
  /** Test seam: read models beside the registry's (a projector rigged to fail), and retry settings. */
  extraProjectors?: Projector[];
  runner?: Pick<RunnerOptions, 'retryMs' | 'maxAttempts' | 'batchSize' | 'beforeBatch'>;
  /** Tests shorten them to see a slow client cut without waiting 30 s. */
  httpTimeouts?: Partial<HttpTimeouts>;
  /** Tests stop at once: nothing of theirs is in flight worth waiting for. */
  drainMs?: number;
}

export interface Service {
  ctx: AppContext;
  app: Express;
  /** Starts the roles of this process; the API listens when it has that role. */
  start(): Promise<{ url?: string }>;
  stop(): Promise<void>;
}

export async function createService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  // The embedded database may still be opening on its thread: nothing below touches it before migrate.
  const database = options.database ?? (await (options.opening ?? openDatabase(config)));
  const { db } = database;
  // The optional engines' clients (gRPC, Kafka) load only when configured: most starts never need them.
  const engineStore = config.EVENTSTORE_URL
    ? (await import('./eventstore/eventstoredb/eventstoredb-event-store.ts')).createEventStoreDbEventStore(config.EVENTSTORE_URL)
    : createPostgresEventStore(db, { engine: database.engine });
  // Appends are recorded per request and task run, so read-your-writes waits for the projectors of what was written.
  const store: EventStore = recordingAppends(engineStore);
  const bus: Bus = config.KAFKA_BROKERS
    ? (await import('./bus/kafka.ts')).createKafkaBus(config.KAFKA_BROKERS.split(','), 'music-library')
    : createInProcessBus();
  const roles = new Set(config.ROLES);
  const activity = new RequestActivity();
  const projectors = [...readModels, ...(options.extraProjectors ?? [])];
  // On PostgreSQL several processes may have the projector role: the one holding the lease runs them (docs/deploy.md).
  let ownership: Ownership | undefined;
  const runner = roles.has('projector')
    ? new ProjectionRunner(db, store, projectors, { ...runnerOptions(database.engine), requestWaits: () => database.turns?.requestWaits(), ...options.runner, lostOwnership: () => ownership?.lost() })
    : undefined;
  database.turns?.followRequests(() => activity.awaitsBackground() || Boolean(runner?.waiters.awaitedByRequests()));
  const shared = database.engine === 'postgres' && database.connectionString;
  if (runner && shared) ownership = lockOwnership(shared, 'projections', runner);
  const tasks = new TaskRunner(store, bus, db, () => ctx.readModels);
  for (const definition of taskDefinitions({ rebuild: rebuildReadModels(runner, shared ? db : undefined), context: () => ctx })) tasks.register(definition);
  const secrets = loadSecrets(config);
  // Several processes share PostgreSQL: sessions ended in one are announced to the others.
  const revocations = shared && roles.has('api') ? revocationChannel(shared, db, (key, sv) => auth.sessions.heard(key, sv)) : undefined;
  const auth = createAuthServices(db, secrets, {
    projectsUsers: Boolean(runner) && !shared,
    scryptN: config.PASSWORD_SCRYPT_N,
    announceRevocation: revocations?.announce,
    sharedThrottles: Boolean(shared),
  });
  runner?.onApplied((projector, events) => {
    if (projector === 'users') auth.sessions.invalidate(events.map((e) => usernameKey((e.data as { username: string }).username)));
  });

  const runningReactors = new Set<RunningReactor>();
  let reactorOwnerships: Ownership[] = [];
  let commands: CommandPorts | undefined;
  const ctx: AppContext = {
    config,
    secrets,
    db,
    engine: database.engine,
    store,
    tasks,
    sessions: auth.sessions,
    auth,
    // Only while this process runs them: otherwise waits and status go through the checkpoints table.
    get projections() {
      return runner?.running ? runner : undefined;
    },
    get commands() {
      return (commands ??= commandPorts(ctx));
    },
    validateResponses: options.validateResponses ?? false,
    readModels: {
      async catchUp(position = lastAppended()) {
        if (!position) return;
        const types = appendedTypes(position);
        await activity.aside(() =>
          ctx.projections
            ? ctx.projections.waitFor(position, types, CATCH_UP_TIMEOUT_MS)
            : pollForPosition(db, position, CATCH_UP_TIMEOUT_MS, projectorsHandling(projectors, types)),
        );
      },
      async catchUpReactions(position = lastAppended()) {
        if (!position) return;
        const types = appendedTypes(position);
        const concerned = [...runningReactors].filter((r) => !types || [...r.handles].some((t) => types.has(t)));
        if (concerned.length === 0) return;
        await activity.aside(() => Promise.all(concerned.map((r) => r.waitFor(position, REACTION_CATCH_UP_TIMEOUT_MS))));
      },
    },
  };
  const app = createApp(ctx, routes, activity);
  await migrate(db);
  await resealLegacyCredentials(db, secrets.secretKey);
  let server: Server | undefined;
  let stopMaintenance = () => {};
  let stopSchedules = () => {};
  let stopServingRebuilds = async () => {};

  return {
    ctx,
    app,
    async start() {
      if (database.pglite) stopMaintenance = startEmbeddedMaintenance(db, () => activity.quiet(250, 5000));
      // A process that waits for the projections' lease starts at once; the owner catches up first.
      if (runner && (!ownership || (await ownership.claim()))) {
        if (!ownership) await runner.start();
        await runner.waiters.waitFor(await store.headPosition(), 60_000);
      } else ownership?.waitForTurn();
      if (runner && shared) stopServingRebuilds = serveRebuildRequests(db, runner, instanceId);
      if (roles.has('worker')) {
        await tasks.listen();
        if (shared) tasks.adoptOrphans();
        else await tasks.recoverInterrupted();
        if (shared) {
          // One worker runs each reactor; the others stand by for it.
          reactorOwnerships = reactors.map((reactor) => reactorOwnership(shared, ctx, reactor, runningReactors));
          for (const owned of reactorOwnerships) if (!(await owned.claim())) owned.waitForTurn();
        } else for (const reactor of reactors) runningReactors.add(startReactor(ctx, reactor));
        stopSchedules = startSchedules(ctx, taskSchedules);
      }
      // The first admin can sign in as soon as the API listens: the users read model includes it.
      if (roles.has('api')) await unitOfWork(ctx.readModels, () => bootstrapAdmin(ctx), { reactions: false });
      if (!roles.has('api')) return {};
      const listening = createHttpServer(app, { ...HTTP_TIMEOUTS, ...options.httpTimeouts });
      await listen(listening, config.PORT, config.HOST);
      server = listening;
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : config.PORT;
      return { url: `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}` };
    },
    async stop() {
      if (server) await drain(server, options.drainMs ?? DRAIN_MS);
      await Promise.all([...runningReactors].map((r) => r.stop()));
      await Promise.all(reactorOwnerships.map((o) => o.stop()));
      stopSchedules();
      await tasks.stop();
      await stopServingRebuilds();
      await runner?.stop();
      await ownership?.stop();
      await revocations?.stop();
      stopMaintenance();
      await bus.close();
      await store.close();
      if (!options.database) await database.close();
      log.debug('service stopped');
    },
  };
}

/**
 * The rebuild task's way to its read models: the local runner on the embedded database (one process),
 * a request served by whichever process holds the projections' lease on PostgreSQL.
 */
function rebuildReadModels(runner: ProjectionRunner | undefined, sharedDb: Kysely<Database> | undefined): RebuildReadModels {
  if (sharedDb) return (id, names, onProgress, signal) => requestRebuild(sharedDb, id, names, onProgress, signal);
  return (_id, names, onProgress, signal) => {
    if (!runner) throw new Error('this process does not run the projector role');
    return runner.rebuild(names, onProgress, signal);
  };
}

/**
 * PGlite shares one connection with the API: batches of about 50 ms there (see RunnerOptions.sliceMs).
 * While the API is busy they run in bursts between runs of requests (../db/connection-turns.ts), so
 * a request waits for a batch only now and then, and a longer batch pays its fixed cost (a dozen
 * statements) over more events: measured in alternating runs, 100 ms against 20 ms made an import
 * 1.3 to 2.7 times faster and a rebuild under a request probe 1.5 times. Once batches could grow
 * to their slice again (../db/hold-budget.ts no longer sticks at its minimum), 100 ms put a GET's
 * p99 during a rebuild at 1.19-2.04 times idle in five runs, 50 ms at 0.96-1.19 in four, the rebuild
 * at 11,600-15,600 events a second against 15,400-16,200, an import alone no slower beyond the
 * noise. For the same reason a batch that reached the head of the log waits up to 25 ms for more
 * unless someone waits for the projections.
 */
function runnerOptions(engine: Engine): RunnerOptions {
  if (engine !== 'pglite') return { batchSize: 500 };
  return { batchSize: 500, sliceMs: () => 50, gatherMs: 25 };
}
