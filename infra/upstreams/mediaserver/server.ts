import type { ZodType } from 'zod';
import { UpstreamNotFound } from '../../../shared/errors.ts';
import { createUpstreamClient, type UpstreamClient } from '../http-client.ts';
import type { Pacer } from '../pacer.ts';
import { MediaserverTokenRejected, SERVER_SERVICE } from './errors.ts';
import { decodeBody, parseWith, plexHeaders } from './plex.ts';
import { Container, type Identity, IdentityContainer, type Item, type Section, SectionsContainer } from './schemas.ts';

export interface ServerClientOptions {
  baseUrl: string;
  /** The server-wide (admin) token; per-user calls pass their own. */
  token: string;
  clientId: string;
  pacer?: Pacer;
  retries?: number;
  retryBaseMs?: number;
  /** Items asked for per page when walking a section. */
  pageSize?: number;
}

/** Library item types, as `type=` of a section listing. */
export const ITEM_TYPE = { movie: 1, show: 2, season: 3, episode: 4, artist: 8, album: 9, track: 10 } as const;
export type ItemType = keyof typeof ITEM_TYPE;

export interface Page {
  items: Item[];
  offset: number;
  totalSize: number;
}

/**
 * The media server's API: identity, sections, section listings paged by container start and size,
 * an item's children, playlists. JSON is asked for; XML is read too.
 */
export function createServerClient(options: ServerClientOptions) {
  const pageSize = options.pageSize ?? 500;
  const http: UpstreamClient = createUpstreamClient({
    service: SERVER_SERVICE,
    baseUrl: options.baseUrl,
    pacer: options.pacer,
    retries: options.retries,
    retryBaseMs: options.retryBaseMs,
  });

  async function get<T>(path: string, schema: ZodType<T>, extra: { token?: string; headers?: Record<string, string>; searchParams?: Record<string, string | number> } = {}): Promise<T> {
    const label = `GET ${path}`;
    const headers = { ...plexHeaders(options.clientId, extra.token ?? options.token), ...extra.headers };
    const res = await http.request('GET', path, { headers, searchParams: extra.searchParams, allowStatuses: [401] });
    if (res.status === 401) throw new MediaserverTokenRejected();
    return parseWith(SERVER_SERVICE, label, schema, decodeBody(SERVER_SERVICE, label, res));
  }

  async function page(path: string, start: number, size: number, searchParams: Record<string, string | number> = {}, token?: string): Promise<Page> {
    const headers = { 'x-plex-container-start': String(start), 'x-plex-container-size': String(size) };
    const { MediaContainer: c } = await get(path, Container, { headers, searchParams, token });
    return { items: c.Metadata, offset: c.offset ?? start, totalSize: c.totalSize ?? start + c.Metadata.length };
  }

  /** Every item of a paged listing, page by page; stops on a short or empty page. */
  async function* walk(path: string, searchParams: Record<string, string | number> = {}, token?: string): AsyncGenerator<Item[]> {
    for (let start = 0; ; ) {
      const { items, totalSize } = await page(path, start, pageSize, searchParams, token);
      if (items.length > 0) yield items;
      start += items.length;
      if (items.length === 0 || start >= totalSize) return;
    }
  }

  async function all(path: string, searchParams: Record<string, string | number> = {}, token?: string): Promise<Item[]> {
    const out: Item[] = [];
    for await (const items of walk(path, searchParams, token)) out.push(...items);
    return out;
  }

  return {
    /** The server's root document: machine identifier, friendly name, version, platform. */
    async identity(): Promise<Identity> {
      return (await get('/', IdentityContainer)).MediaContainer;
    },
    async sections(): Promise<Section[]> {
      return (await get('/library/sections', SectionsContainer)).MediaContainer.Directory;
    },
    /** One page of a section's items of a type (`filters` narrows, e.g. `artist.id`). */
    sectionPage: (sectionId: string, type: ItemType, start: number, size = pageSize, filters: Record<string, string | number> = {}) =>
      page(`/library/sections/${encodeURIComponent(sectionId)}/all`, start, size, { type: ITEM_TYPE[type], ...filters }),
    /** Pages of a section's items of a type, walked to the end. */
    sectionItems: (sectionId: string, type: ItemType, filters: Record<string, string | number> = {}) =>
      walk(`/library/sections/${encodeURIComponent(sectionId)}/all`, { type: ITEM_TYPE[type], ...filters }),
    /** An artist's albums or an album's tracks (with Media and Part). */
    children: (ratingKey: string) => all(`/library/metadata/${encodeURIComponent(ratingKey)}/children`),
    async metadata(ratingKey: string): Promise<Item> {
      const { MediaContainer: c } = await get(`/library/metadata/${encodeURIComponent(ratingKey)}`, Container);
      const item = c.Metadata[0];
      if (!item) throw new UpstreamNotFound(SERVER_SERVICE, `GET /library/metadata/${ratingKey} found nothing`);
      return item;
    },
    /** The playlists a token sees (the server's own, or a user's with their token). */
    playlists: (token?: string, playlistType?: string) => all('/playlists', playlistType ? { playlistType } : {}, token),
    playlistItems: (ratingKey: string, token?: string) => all(`/playlists/${encodeURIComponent(ratingKey)}/items`, {}, token),
  };
}

export type ServerClient = ReturnType<typeof createServerClient>;
