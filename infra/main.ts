// First: the embedded database's thread boots while everything below is evaluated.
import { earlyThread } from './db/pglite-thread-early.ts';
import { type Config, ConfigurationError, loadConfig } from './config.ts';
import { PortInUse, refuseBusyPort } from './http/server.ts';
import { log, setLogLevel } from './logger.ts';
import type { Service } from './service.ts';

/** Entry point: `npm start` runs the API, the projector and the worker in one process. */
const config = configOrExit();
setLogLevel(config.LOG_LEVEL);
if (config.ROLES.includes('api')) await refuseBusyPort(config.PORT, config.HOST).catch(exitOnListenRefused);
// Loaded after the checks above: a refused setting or a busy port is reported without compiling the whole service first.
// The database opens first: PGlite starts on a thread of its own while this one loads the service's
// modules, and each takes about as long as the other.
const opening = import('./db/create-db.ts').then(({ openDatabase }) => openDatabase(config, earlyThread));
const { createService } = await import('./service.ts');
const service = await createService(config, { opening });
const starting = service.start();
stopOnSignals(service, starting);
const { url } = await starting.catch(async (error) => {
  await service.stop();
  return exitOnListenRefused(error);
});
log.info('service started', {
  roles: config.ROLES,
  database: config.DATABASE_URL ? 'postgresql' : `embedded (PGlite in ${config.DATA_DIR})`,
  event_store: config.EVENTSTORE_URL ? 'eventstoredb' : 'postgres',
});
if (url) log.announce(`Listening on ${url} (API docs: ${url}/docs)`, { url });

/**
 * SIGTERM (a container or service manager, through npm) and SIGINT (Ctrl-C) stop the service: no
 * new connections, requests in flight finish, tasks reach a checkpoint, the database closes, exit 0.
 * A second signal gives up on all that.
 */
function stopOnSignals(running: Service, started: Promise<unknown>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(1);
      stopping = true;
      log.info('stopping', { signal });
      started
        .catch(() => undefined)
        .then(() => running.stop())
        .then(
          () => {
            log.info('service stopped');
            process.exit(0);
          },
          (error) => {
            log.error('stop failed', { error: String(error) });
            process.exit(1);
          },
        );
    });
  }
}

/** A port or address the service cannot listen on is a setting to fix: one line, no stack trace. */
function exitOnListenRefused(error: unknown): never {
  const code = (error as NodeJS.ErrnoException).code;
  if (error instanceof PortInUse) log.error(error.message);
  else if (code === 'EACCES' || code === 'EADDRNOTAVAIL') log.error(`cannot listen on ${config.HOST}:${config.PORT} (${code}): set HOST and PORT`);
  else throw error;
  process.exit(1);
}

/** A setting the service refuses is the operator's to fix: one line each, no stack trace. */
function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    for (const problem of error.problems) console.error(`refusing to start: ${problem}`);
    process.exit(1);
  }
}
