import type { ZodType } from 'zod';
import { UpstreamError, UpstreamNotFound } from '../../../shared/errors.ts';
import type { Config } from '../../config.ts';
import { log } from '../../logger.ts';
import { createUpstreamClient, type SearchParams, type UpstreamClient } from '../http-client.ts';
import { createPacer, type Pacer } from '../pacer.ts';
import { CATALOG_MIN_INTERVAL_MS, CATALOG_PAGE_LIMIT, classifyError, describeError } from './deezer.ts';
import {
  CatalogAlbum,
  CatalogArtist,
  CatalogArtistAlbum,
  type CatalogAlbumWithTracks,
  CatalogErrorEnvelope,
  CatalogPage,
  CatalogTrack,
} from './schemas.ts';

export const CATALOG_SERVICE = 'catalog';
/** A tracklist longer than this many pages is cut: no real album is that long. */
const MAX_TRACK_PAGES = 20;

export interface CatalogClientOptions {
  baseUrl: string;
  pacer?: Pacer;
  /** First wait after a quota answer, doubled each time; tests shorten it. */
  retryBaseMs?: number;
  /** Attempts after a quota or busy answer before giving up. */
  retries?: number;
  timeoutMs?: number;
}

export interface PageOptions {
  index?: number;
  limit?: number;
}

/** Reads of the catalog provider. "Nothing there" is UpstreamNotFound; faults are UpstreamError. */
export interface CatalogClient {
  artist(id: string | number): Promise<CatalogArtist>;
  album(id: string | number): Promise<CatalogAlbum>;
  /** Every track of the album's tracklist, with ISRC and positions, across pages. */
  albumTracks(id: string | number): Promise<CatalogTrack[]>;
  albumWithTracks(id: string | number): Promise<CatalogAlbumWithTracks>;
  track(id: string | number): Promise<CatalogTrack>;
  /** The track payload found by ISRC (`/track/isrc:{ISRC}`). */
  trackByIsrc(isrc: string): Promise<CatalogTrack>;
  /** The album payload found by UPC (`/album/upc:{UPC}`). */
  albumByUpc(upc: string): Promise<CatalogAlbum>;
  relatedArtists(id: string | number, page?: PageOptions): Promise<CatalogPage<CatalogArtist>>;
  /** One page of the artist's albums, singles and compilations (`/artist/{id}/albums`). */
  artistAlbums(id: string | number, page?: PageOptions): Promise<CatalogPage<CatalogArtistAlbum>>;
  searchArtists(q: string, page?: PageOptions): Promise<CatalogPage<CatalogArtist>>;
  searchAlbums(q: string, page?: PageOptions): Promise<CatalogPage<CatalogAlbum>>;
  searchTracks(q: string, page?: PageOptions): Promise<CatalogPage<CatalogTrack>>;
}

type Get = <T>(path: string, schema: ZodType<T>, searchParams?: SearchParams) => Promise<T>;

export function createCatalogClient(options: CatalogClientOptions): CatalogClient {
  const { retries = 3, retryBaseMs = 1000 } = options;
  const http = createUpstreamClient({ service: CATALOG_SERVICE, baseUrl: options.baseUrl, pacer: options.pacer, timeoutMs: options.timeoutMs, retryBaseMs });
  const get = envelopeReader(http, retries, retryBaseMs);
  const paged = (page: PageOptions = {}): SearchParams => ({ index: page.index, limit: page.limit });
  const idOf = (id: string | number) => encodeURIComponent(String(id));
  const albumTracks = (id: string | number) => walkTracklist(get, `/album/${idOf(id)}/tracks`);
  return {
    artist: (id) => get(`/artist/${idOf(id)}`, CatalogArtist),
    album: (id) => get(`/album/${idOf(id)}`, CatalogAlbum),
    albumTracks,
    async albumWithTracks(id) {
      const album = await get(`/album/${idOf(id)}`, CatalogAlbum);
      return { album, tracks: await albumTracks(album.id) };
    },
    track: (id) => get(`/track/${idOf(id)}`, CatalogTrack),
    trackByIsrc: (isrc) => get(`/track/isrc:${encodeURIComponent(isrc)}`, CatalogTrack),
    albumByUpc: (upc) => get(`/album/upc:${encodeURIComponent(upc)}`, CatalogAlbum),
    relatedArtists: (id, page) => get(`/artist/${idOf(id)}/related`, CatalogPage(CatalogArtist), paged(page)),
    artistAlbums: (id, page) => get(`/artist/${idOf(id)}/albums`, CatalogPage(CatalogArtistAlbum), paged(page)),
    searchArtists: (q, page) => get('/search/artist', CatalogPage(CatalogArtist), { q, ...paged(page) }),
    searchAlbums: (q, page) => get('/search/album', CatalogPage(CatalogAlbum), { q, ...paged(page) }),
    searchTracks: (q, page) => get('/search', CatalogPage(CatalogTrack), { q, ...paged(page) }),
  };
}

/** GETs that read the HTTP-200 error envelope: "no data" is UpstreamNotFound, quota is retried. */
function envelopeReader(http: UpstreamClient, retries: number, retryBaseMs: number): Get {
  return async function get<T>(path: string, schema: ZodType<T>, searchParams?: SearchParams): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const body = await http.getJson<unknown>(path, { searchParams });
      const envelope = CatalogErrorEnvelope.safeParse(body);
      if (!envelope.success) return parse(path, body, schema);
      const verdict = classifyError(envelope.data.error);
      const what = describeError(envelope.data.error);
      if (verdict === 'not_found') throw new UpstreamNotFound(CATALOG_SERVICE, `GET ${path} found nothing`);
      if (verdict === 'fault' || attempt >= retries) throw new UpstreamError(CATALOG_SERVICE, `GET ${path} answered ${what}`);
      const delayMs = retryBaseMs * 2 ** attempt;
      log.warn('upstream retry', { service: CATALOG_SERVICE, path, error: what, delayMs });
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  };
}

/** Every row of a tracklist, page by page, until the total is reached or the pages run out. */
async function walkTracklist(get: Get, path: string): Promise<CatalogTrack[]> {
  const tracks: CatalogTrack[] = [];
  for (let page = 0; page < MAX_TRACK_PAGES; page++) {
    const got = await get(path, CatalogPage(CatalogTrack), { index: tracks.length, limit: CATALOG_PAGE_LIMIT });
    tracks.push(...got.data);
    if (got.data.length === 0 || !got.next || (got.total !== undefined && tracks.length >= got.total)) break;
  }
  return tracks;
}

function parse<T>(path: string, body: unknown, schema: ZodType<T>): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.map(String).join('.') || '(root)';
  throw new UpstreamError(CATALOG_SERVICE, `GET ${path} answered an unexpected shape at ${where}: ${issue?.message}`);
}

const clients = new WeakMap<Config, CatalogClient>();

/** One client per configuration, so that every caller in the process shares one pacer. */
export function catalogClient(config: Config): CatalogClient {
  let client = clients.get(config);
  if (!client) {
    const pacer = createPacer({ enabled: config.UPSTREAM_PACING === 'real', minIntervalMs: CATALOG_MIN_INTERVAL_MS });
    client = createCatalogClient({ baseUrl: config.CATALOG_API_URL, pacer, retryBaseMs: config.UPSTREAM_PACING === 'real' ? 1000 : 10 });
    clients.set(config, client);
  }
  return client;
}
