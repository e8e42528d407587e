import type { Config } from '../../config.ts';
import { createUpstreamClient } from '../http-client.ts';
import { type Pacer, type PacerOptions, createPacer } from '../pacer.ts';
import { StoreLookup, type StoreResult } from './schemas.ts';

export const STORE_SERVICE = 'store';
/** The store's look-up API tolerates about 20 requests a minute: one every 3 s. */
export const STORE_PACING: Pick<PacerOptions, 'minIntervalMs' | 'perMinute'> = { minIntervalMs: 3000, perMinute: 20 };

export interface StoreClientOptions {
  baseUrl: string;
  pacer?: Pacer;
  retryBaseMs?: number;
}

/**
 * The store's look-up API (iTunes Search API): `GET /lookup?upc=…&entity=song` answers the album
 * and its songs, `GET /lookup?isrc=…` the songs that carry the ISRC. The code is the key of the
 * look-up itself (the answer does not repeat it): nothing is ever looked up by name.
 */
export function createStoreClient(options: StoreClientOptions) {
  const http = createUpstreamClient({ service: STORE_SERVICE, baseUrl: options.baseUrl, pacer: options.pacer, retryBaseMs: options.retryBaseMs });
  const lookup = async (searchParams: Record<string, string>): Promise<StoreResult[]> => (await http.getJson('/lookup', { searchParams, schema: StoreLookup })).results;
  return {
    /** The album with this UPC, or null when the store has none. */
    async albumByUpc(upc: string): Promise<StoreResult | null> {
      return (await lookup({ upc, entity: 'song' })).find((r) => r.wrapperType === 'collection' && r.collectionId !== undefined) ?? null;
    },
    /** The song with this ISRC, or null. */
    async trackByIsrc(isrc: string): Promise<StoreResult | null> {
      return (await lookup({ isrc })).find((r) => r.wrapperType === 'track' && r.trackId !== undefined) ?? null;
    },
  };
}

export type StoreClient = ReturnType<typeof createStoreClient>;

const clients = new WeakMap<Config, StoreClient>();

/** One client per configuration: every caller in the process shares its pacer. */
export function storeClient(config: Config): StoreClient {
  let client = clients.get(config);
  if (!client) {
    const real = config.UPSTREAM_PACING === 'real';
    client = createStoreClient({ baseUrl: config.STORE_API_URL, pacer: createPacer({ enabled: real, ...STORE_PACING }), retryBaseMs: real ? 1000 : 10 });
    clients.set(config, client);
  }
  return client;
}
