import type { Config } from '../../config.ts';
import { createUpstreamClient, type UpstreamClient } from '../http-client.ts';
import { type AccountsClient, accountsClient } from './accounts.ts';
import { type AccessTokens, type StreamerApi, streamerApi } from './api.ts';
import { SERVICE, StreamerNotConfigured } from './errors.ts';

export interface StreamerClients {
  accounts: AccountsClient;
  api(tokens: AccessTokens): StreamerApi;
}

const built = new WeakMap<Config, { accounts: UpstreamClient; api: UpstreamClient }>();

/** Whether the operator set what the OAuth link needs. */
export const streamerConfigured = (config: Config) => Boolean(config.STREAMER_CLIENT_ID && config.STREAMER_CLIENT_SECRET && config.STREAMER_REDIRECT_URI);

/** The accounts service and the Web API; 503 naming the missing settings when not configured. */
export function streamerClients(config: Config): StreamerClients {
  assertStreamerConfigured(config);
  let http = built.get(config);
  if (!http) {
    // Tests turn pacing off, and with it the long backoff steps.
    const retryBaseMs = config.UPSTREAM_PACING === 'real' ? 1000 : 20;
    http = {
      accounts: createUpstreamClient({ service: SERVICE, baseUrl: config.STREAMER_ACCOUNTS_URL, retryBaseMs }),
      api: createUpstreamClient({ service: SERVICE, baseUrl: config.STREAMER_API_URL, retryBaseMs, retries: 4 }),
    };
    built.set(config, http);
  }
  const { accounts, api } = http;
  return {
    accounts: accountsClient(accounts, {
      accountsUrl: config.STREAMER_ACCOUNTS_URL,
      clientId: config.STREAMER_CLIENT_ID!,
      clientSecret: config.STREAMER_CLIENT_SECRET!,
      redirectUri: config.STREAMER_REDIRECT_URI!,
    }),
    api: (tokens) => streamerApi(api, config.STREAMER_API_URL, tokens),
  };
}

/** For routes that make no upstream call but still say the streamer is off: 503 naming the settings. */
export function assertStreamerConfigured(config: Config): void {
  if (!streamerConfigured(config)) throw new StreamerNotConfigured();
}
