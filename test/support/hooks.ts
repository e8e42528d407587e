import { setLogLevel } from '../../infra/logger.ts';
import { createTemplateOnce, dropTemplate } from './database.ts';

process.env.NODE_ENV = 'test';
setLogLevel((process.env.TEST_LOG_LEVEL as 'debug' | 'info' | 'warn' | 'error' | 'silent') ?? 'silent');

/**
 * Once per run, in mocha's main process: the PostgreSQL template every file clones. In parallel mode
 * root hooks run per file in each worker, so the template cannot be made or dropped there; the
 * workers find its name in the environment they inherit.
 */
export async function mochaGlobalSetup() {
  await createTemplateOnce();
}

export async function mochaGlobalTeardown() {
  await dropTemplate();
}
