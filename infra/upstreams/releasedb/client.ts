import { z } from 'zod';
import { NotConfigured } from '../../../shared/errors.ts';
import type { Config } from '../../config.ts';
import { createUpstreamClient } from '../http-client.ts';
import { type Pacer, createPacer } from '../pacer.ts';

export const RELEASEDB_SERVICE = 'releasedb';
/** The releasedb allows 60 authenticated requests a minute: one a second leaves room for others. */
export const RELEASEDB_MIN_INTERVAL_MS = 1000;

/** A row of `/database/search`: the release with its barcodes as printed, styles, genres and labels. */
export const ReleasedbSearchRow = z.object({
  id: z.number().int(),
  type: z.string(),
  title: z.string().optional(),
  barcode: z.array(z.string()).default([]),
  style: z.array(z.string()).default([]),
  genre: z.array(z.string()).default([]),
  label: z.array(z.string()).default([]),
  year: z.string().optional(),
});
export type ReleasedbSearchRow = z.infer<typeof ReleasedbSearchRow>;
const SearchPage = z.object({ results: z.array(ReleasedbSearchRow) });

/**
 * The releasedb (Discogs API): `GET /database/search?barcode=…&type=release` with the personal
 * token in `Authorization: Discogs token=…` (never in the URL, never followed to another origin).
 */
export function createReleasedbClient(options: { baseUrl: string; token: string; pacer?: Pacer; retryBaseMs?: number }) {
  const http = createUpstreamClient({
    service: RELEASEDB_SERVICE,
    baseUrl: options.baseUrl,
    pacer: options.pacer,
    retryBaseMs: options.retryBaseMs,
    headers: { authorization: `Discogs token=${options.token}` },
  });
  return {
    async releasesByBarcode(barcode: string): Promise<ReleasedbSearchRow[]> {
      return (await http.getJson('/database/search', { searchParams: { barcode, type: 'release' }, schema: SearchPage })).results;
    },
  };
}

export type ReleasedbClient = ReturnType<typeof createReleasedbClient>;
const clients = new WeakMap<Config, ReleasedbClient>();

/** The process's client (one pacer for every caller); 503 while RELEASEDB_TOKEN is unset. */
export function releasedbClient(config: Config): ReleasedbClient {
  if (!config.RELEASEDB_TOKEN) throw new NotConfigured('releasedb is not configured (RELEASEDB_TOKEN)');
  let client = clients.get(config);
  if (!client) {
    const real = config.UPSTREAM_PACING === 'real';
    client = createReleasedbClient({ baseUrl: config.RELEASEDB_API_URL, token: config.RELEASEDB_TOKEN, pacer: createPacer({ enabled: real, minIntervalMs: RELEASEDB_MIN_INTERVAL_MS }), retryBaseMs: real ? 1000 : 10 });
    clients.set(config, client);
  }
  return client;
}
