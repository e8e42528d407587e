import { setLogLevel } from '../../infra/logger.ts';
import { dropTemplates } from './database.ts';

process.env.NODE_ENV = 'test';
setLogLevel((process.env.TEST_LOG_LEVEL as 'debug' | 'info' | 'warn' | 'error' | 'silent') ?? 'silent');

export const mochaHooks = {
  async afterAll() {
    await dropTemplates();
  },
};
