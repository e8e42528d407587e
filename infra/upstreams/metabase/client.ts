import type { Config } from '../../config.ts';
import { type UpstreamClient, USER_AGENT_PRODUCT, createUpstreamClient } from '../http-client.ts';
import { type Pacer, createPacer } from '../pacer.ts';
import { type EntityKind, LOOKUP_INC, METABASE_MIN_INTERVAL_MS, PING_AREA, type Searchable, barcodeQuery } from './musicbrainz.ts';
import { IsrcAnswer, MetabaseObject, SearchAnswer } from './schemas.ts';

export const METABASE_SERVICE = 'metabase';

export interface MetabaseClientOptions {
  baseUrl: string;
  pacer?: Pacer;
  contact?: string | undefined;
  retries?: number;
  retryBaseMs?: number;
}

/** The User-Agent the metabase asks for: application, version, and how to reach whoever runs it. */
export const metabaseUserAgent = (contact: string | undefined) => `${USER_AGENT_PRODUCT} ( ${contact ?? 'self-hosted music library'} )`;

/**
 * Reads of the metabase's web service. "Nothing there" (404) is UpstreamNotFound; a 503 (over the
 * rate) is retried after its Retry-After or a backoff, through the pacer like every attempt.
 */
export function createMetabaseClient(options: MetabaseClientOptions) {
  const http: UpstreamClient = createUpstreamClient({
    service: METABASE_SERVICE,
    baseUrl: options.baseUrl,
    pacer: options.pacer,
    retries: options.retries ?? 4,
    retryBaseMs: options.retryBaseMs ?? 1000,
    userAgent: metabaseUserAgent(options.contact),
    headers: { accept: 'application/json' },
  });
  const json = { fmt: 'json' };
  return {
    lookup: (kind: EntityKind, mbid: string) => http.getJson(`/${kind}/${encodeURIComponent(mbid)}`, { searchParams: { inc: LOOKUP_INC[kind], ...json }, schema: MetabaseObject }),
    search: (entity: Searchable, query: string, limit: number, offset: number) =>
      http.getJson(`/${entity}`, { searchParams: { query, limit, offset, ...json }, schema: SearchAnswer }),
    releaseGroupsOf: (artist: string, limit: number, offset: number) =>
      http.getJson('/release-group', { searchParams: { artist, limit, offset, ...json }, schema: MetabaseObject }),
    releasesByBarcode: (upc: string) => http.getJson('/release', { searchParams: { query: barcodeQuery(upc), limit: 25, ...json }, schema: SearchAnswer }),
    recordingsByIsrc: (isrc: string) => http.getJson(`/isrc/${encodeURIComponent(isrc)}`, { searchParams: json, schema: IsrcAnswer }),
    /** One cheap live lookup, for the health view: how long the service took to answer. */
    async ping(): Promise<number> {
      const started = Date.now();
      await http.getJson(`/area/${PING_AREA}`, { searchParams: json });
      return Date.now() - started;
    },
  };
}

export type MetabaseClient = ReturnType<typeof createMetabaseClient>;

const clients = new WeakMap<Config, MetabaseClient>();

/** One client per configuration: every caller in the process (proxy, drains, pages) shares its pacer. */
export function metabaseClient(config: Config): MetabaseClient {
  let client = clients.get(config);
  if (!client) {
    const real = config.UPSTREAM_PACING === 'real';
    client = createMetabaseClient({
      baseUrl: config.METABASE_API_URL,
      pacer: createPacer({ enabled: real, minIntervalMs: METABASE_MIN_INTERVAL_MS }),
      contact: config.METABASE_CONTACT,
      retryBaseMs: real ? 1000 : 10,
    });
    clients.set(config, client);
  }
  return client;
}
