import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../infra/context.ts';
import { log } from '../../infra/logger.ts';
import { countUsers } from '../../projectors/auth/users.reads.ts';
import { Conflict } from '../../shared/errors.ts';
import { accounts } from './accounts.ts';

/**
 * First start (no account at all): creates the admin from ADMIN_USERNAME / ADMIN_PASSWORD, or with a
 * generated password printed once. Two processes starting together: one registration wins.
 */
export async function bootstrapAdmin(ctx: AppContext, print: (line: string) => void = console.log): Promise<void> {
  if ((await countUsers(ctx.db)) > 0) return;
  const username = ctx.config.ADMIN_USERNAME;
  const password = ctx.config.ADMIN_PASSWORD ?? randomBytes(12).toString('base64url');
  try {
    await accounts(ctx).register(username, password, 'admin', null);
  } catch (error) {
    if (error instanceof Conflict) return;
    throw error;
  }
  log.info('first start: admin account created', { username });
  if (!ctx.config.ADMIN_PASSWORD) print(`First start: created admin "${username}" with password: ${password}  (shown once; change it after signing in)`);
}
