import { UpstreamError } from '../../../shared/errors.ts';
import type { Config } from '../../config.ts';
import { type UpstreamResponse, USER_AGENT_PRODUCT, createUpstreamClient } from '../http-client.ts';
import { metabaseUserAgent } from '../metabase/client.ts';
import { type Pacer, createPacer } from '../pacer.ts';
import { MAX_REDIRECTS, REDIRECT_STATUSES, redirectTarget, refusedRedirect } from '../redirects.ts';

export const COVERART_SERVICE = 'coverart';
export type CoverArtKind = 'release' | 'release-group';

export interface CoverArtClientOptions {
  baseUrl: string;
  pacer?: Pacer;
  contact?: string | undefined;
  retryBaseMs?: number;
}

/**
 * The cover art archive: `GET /release/{mbid}` and `/release-group/{mbid}` answer the list of
 * images, often by a redirect to the archive that stores them. Such a redirect is followed, but
 * the request to another origin is a bare one (the product name as User-Agent, no contact, no
 * header of ours), so nothing of this installation travels beyond the archive's own origin.
 */
export function createCoverArtClient(options: CoverArtClientOptions) {
  const followed = [...REDIRECT_STATUSES, 404];
  const home = createUpstreamClient({
    service: COVERART_SERVICE,
    baseUrl: options.baseUrl,
    pacer: options.pacer,
    retryBaseMs: options.retryBaseMs,
    userAgent: metabaseUserAgent(options.contact),
    headers: { accept: 'application/json' },
  });
  const elsewhere = (origin: string) =>
    createUpstreamClient({ service: COVERART_SERVICE, baseUrl: origin, pacer: options.pacer, retryBaseMs: options.retryBaseMs, userAgent: USER_AGENT_PRODUCT, headers: { accept: 'application/json' } });

  return {
    /** The image list, or null when the archive has no art for it (404). */
    async images(kind: CoverArtKind, mbid: string): Promise<Record<string, unknown> | null> {
      let url = new URL(`${options.baseUrl}/${kind}/${encodeURIComponent(mbid)}`);
      let res: UpstreamResponse = await home.request('GET', `/${kind}/${encodeURIComponent(mbid)}`, { allowStatuses: followed });
      for (let hop = 0; REDIRECT_STATUSES.has(res.status); hop++) {
        const target = redirectTarget(url, res.headers.location);
        if (!target || !['http:', 'https:'].includes(target.protocol)) throw new UpstreamError(COVERART_SERVICE, `GET /${kind} ${refusedRedirect(target)}`);
        if (hop >= MAX_REDIRECTS) throw new UpstreamError(COVERART_SERVICE, `GET /${kind} redirected more than ${MAX_REDIRECTS} times`);
        res = await elsewhere(target.origin).request('GET', `${target.pathname}${target.search}`, { allowStatuses: followed });
        url = target;
      }
      if (res.status === 404) return null;
      return parseImages(kind, res);
    },
  };
}

function parseImages(kind: CoverArtKind, res: UpstreamResponse): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new UpstreamError(COVERART_SERVICE, `GET /${kind} answered invalid JSON`);
  }
  if (!data || typeof data !== 'object' || !Array.isArray((data as { images?: unknown }).images)) {
    throw new UpstreamError(COVERART_SERVICE, `GET /${kind} answered an unexpected shape`);
  }
  return data as Record<string, unknown>;
}

export type CoverArtClient = ReturnType<typeof createCoverArtClient>;

const clients = new WeakMap<Config, CoverArtClient>();

export function coverArtClient(config: Config): CoverArtClient {
  let client = clients.get(config);
  if (!client) {
    const real = config.UPSTREAM_PACING === 'real';
    client = createCoverArtClient({ baseUrl: config.COVERART_API_URL, pacer: createPacer({ enabled: real, minIntervalMs: 1000 }), contact: config.METABASE_CONTACT, retryBaseMs: real ? 1000 : 10 });
    clients.set(config, client);
  }
  return client;
}
