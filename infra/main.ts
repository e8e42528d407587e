import { type Config, ConfigurationError, loadConfig } from './config.ts';
import { log, setLogLevel } from './logger.ts';
import { createService } from './service.ts';

/** Entry point: `npm start` runs the API, the projector and the worker in one process. */
const config = configOrExit();
setLogLevel(config.LOG_LEVEL);
const service = await createService(config);
const { url } = await service.start();
log.info('service started', {
  roles: config.ROLES,
  database: config.DATABASE_URL ? 'postgresql' : `embedded (PGlite in ${config.DATA_DIR})`,
  event_store: config.EVENTSTORE_URL ? 'eventstoredb' : 'postgres',
});
if (url) console.log(`Listening on ${url} (API docs: ${url}/docs)`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info('stopping', { signal });
    service.stop().then(
      () => process.exit(0),
      (error) => {
        log.error('stop failed', { error: String(error) });
        process.exit(1);
      },
    );
  });
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
