import type { Config } from '../../config.ts';
import type { Secrets } from '../../secrets.ts';
import { UpstreamNotFound } from '../../../shared/errors.ts';
import { createUpstreamClient, type HttpMethod, type SearchParams } from '../http-client.ts';
import { mediaserverClients } from './client.ts';
import { MediaserverTokenRejected, SERVER_SERVICE } from './errors.ts';
import { decodeBody, parseWith, plexHeaders } from './plex.ts';
import { Container, type Item } from './schemas.ts';

/**
 * Playlist writes and single-playlist reads, always with a user's own token (a user's playlists
 * are theirs on the server). Listings and items are read through the server client.
 */
export function createPlaylistClient(options: { baseUrl: string; clientId: string }) {
  const http = createUpstreamClient({ service: SERVER_SERVICE, baseUrl: options.baseUrl });

  async function call(method: HttpMethod, path: string, token: string, searchParams?: SearchParams): Promise<Item[]> {
    const label = `${method} ${path.replace(/\d+/g, '{id}')}`;
    const res = await http.request(method, path, { headers: plexHeaders(options.clientId, token), searchParams, allowStatuses: [401] });
    if (res.status === 401) throw new MediaserverTokenRejected();
    const data = decodeBody(SERVER_SERVICE, label, res);
    return data === null ? [] : parseWith(SERVER_SERVICE, label, Container, data).MediaContainer.Metadata;
  }
  const uriOf = (serverId: string, ratingKeys: string[]) => `server://${serverId}/com.plexapp.plugins.library/library/metadata/${ratingKeys.join(',')}`;

  return {
    async playlist(token: string, ratingKey: string): Promise<Item> {
      const item = (await call('GET', `/playlists/${encodeURIComponent(ratingKey)}`, token))[0];
      if (!item) throw new UpstreamNotFound(SERVER_SERVICE, 'GET /playlists/{id} found nothing');
      return item;
    },
    async create(token: string, serverId: string, title: string, ratingKeys: string[]): Promise<Item> {
      const item = (await call('POST', '/playlists', token, { type: 'audio', title, smart: 0, uri: uriOf(serverId, ratingKeys) }))[0];
      if (!item) throw new UpstreamNotFound(SERVER_SERVICE, 'POST /playlists answered no playlist');
      return item;
    },
    add: (token: string, serverId: string, ratingKey: string, itemKeys: string[]) =>
      call('PUT', `/playlists/${encodeURIComponent(ratingKey)}/items`, token, { uri: uriOf(serverId, itemKeys) }),
    remove: (token: string, ratingKey: string, playlistItemId: string) =>
      call('DELETE', `/playlists/${encodeURIComponent(ratingKey)}/items/${encodeURIComponent(playlistItemId)}`, token),
    delete: (token: string, ratingKey: string) => call('DELETE', `/playlists/${encodeURIComponent(ratingKey)}`, token),
  };
}

export type PlaylistClient = ReturnType<typeof createPlaylistClient>;

const cache = new WeakMap<object, PlaylistClient>();

/** The configured server's playlist client; 503 when the server is not configured. */
export function mediaserverPlaylists(ctx: { config: Config; secrets: Secrets }): PlaylistClient {
  const clients = mediaserverClients(ctx);
  clients.server();
  const cached = cache.get(ctx.config);
  if (cached) return cached;
  const client = createPlaylistClient({ baseUrl: ctx.config.MEDIASERVER_URL!, clientId: clients.clientId });
  cache.set(ctx.config, client);
  return client;
}
