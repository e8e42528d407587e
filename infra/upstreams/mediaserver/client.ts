import type { Config } from '../../config.ts';
import type { Secrets } from '../../secrets.ts';
import { NotConfigured } from '../../../shared/errors.ts';
import { hashedId } from '../../../shared/ids.ts';
import { type AccountClient, createAccountClient } from './account.ts';
import { createServerClient, type ServerClient } from './server.ts';

export interface MediaserverClients {
  readonly clientId: string;
  readonly account: AccountClient;
  /** The configured server with its admin token; 503 when MEDIASERVER_URL or MEDIASERVER_TOKEN is unset. */
  server(): ServerClient;
  readonly configured: boolean;
}

const cache = new WeakMap<object, MediaserverClients>();

/**
 * The clients of one running service, built once. Without MEDIASERVER_CLIENT_ID the identifier is
 * derived from the service's secret key: stable across restarts, distinct per installation.
 */
export function mediaserverClients(ctx: { config: Config; secrets: Secrets }): MediaserverClients {
  const cached = cache.get(ctx.config);
  if (cached) return cached;
  const { config } = ctx;
  const clientId = config.MEDIASERVER_CLIENT_ID ?? `mls-${hashedId('mediaserver-client-id', ctx.secrets.secretKey)}`;
  const account = createAccountClient({ baseUrl: config.MEDIASERVER_ACCOUNT_URL, clientId });
  let server: ServerClient | undefined;
  const clients: MediaserverClients = {
    clientId,
    account,
    configured: Boolean(config.MEDIASERVER_URL && config.MEDIASERVER_TOKEN),
    server() {
      if (!config.MEDIASERVER_URL || !config.MEDIASERVER_TOKEN) {
        throw new NotConfigured('The media server is not configured (MEDIASERVER_URL and MEDIASERVER_TOKEN)');
      }
      server ??= createServerClient({ baseUrl: config.MEDIASERVER_URL, token: config.MEDIASERVER_TOKEN, clientId });
      return server;
    },
  };
  cache.set(config, clients);
  return clients;
}
