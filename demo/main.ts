import { log, setLogLevel } from '../infra/logger.ts';
import { DEMO_LOGIN, startDemo } from './start-demo.ts';

/**
 * `npm run demo`: the service with a sample library and listening history, every upstream faked on
 * loopback, data in ./demo-data (DEMO_DIR), on PORT (default 8000). Ctrl-C stops it all.
 */
const logLevel = 'warn';
setLogLevel(logLevel);
const demo = await startDemo({
  dataDir: process.env.DEMO_DIR || './demo-data',
  port: Number(process.env.PORT || 8000),
  host: process.env.HOST || '127.0.0.1',
  logLevel,
  say: (line) => log.announce(`demo: ${line}`),
}).catch((error: unknown) => {
  log.error(`demo failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
log.announce(`Demo ready on ${demo.url} (API docs: ${demo.url}/docs); sign in as ${DEMO_LOGIN.username} / ${DEMO_LOGIN.password}`, { url: demo.url });

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    demo.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
