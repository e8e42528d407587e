import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { defineRoute } from '../../infra/http/define-route.ts';
import { sendJsonArray } from '../../infra/http/json-array-stream.ts';
import { OFFSET, PAGE, optionalQueryInt, queryBool, queryInt } from '../../infra/http/params.ts';
import { mediaserverClients } from '../../infra/upstreams/mediaserver/client.ts';
import { countItems, listPage, walkItems } from './library-list.queries.ts';
import { MirrorItemRow, countsByKind, currentServer, nonFlacAlbums, searchItems } from './library.queries.ts';

/** List path tail → the mirror's item kind. */
const LISTS = { artists: 'artist', albums: 'album', tracks: 'track', movies: 'movie', shows: 'show', seasons: 'season', episodes: 'episode' } as const;
const SEARCH_KINDS: Record<string, string> = { artist: 'artist', artists: 'artist', album: 'album', albums: 'album', track: 'track', tracks: 'track' };

const Library = z.object({
  server_id: z.string(),
  section_id: z.string(),
  type: z.string(),
  title: z.string(),
  agent: z.string().nullable(),
  last_synced_at: z.string().nullable(),
  last_sync: z.record(z.string(), z.unknown()).nullable(),
});

const ServerIdentity = z.object({
  server_id: z.string(),
  machine_identifier: z.string(),
  friendly_name: z.string().nullable(),
  version: z.string().nullable(),
  platform: z.string().nullable(),
  platform_version: z.string().nullable(),
  listed_at: z.string(),
});

/** The mirror's server; when it has none yet and a server is configured, one live refresh fills it. */
async function serverOrRefresh(ctx: AppContext, actor: string) {
  const known = await currentServer(ctx.db);
  if (known || !mediaserverClients(ctx).configured) return known;
  await ctx.commands.library.refreshLibraries(actor);
  return currentServer(ctx.db);
}

const LIST_QUERY = z.object({
  include_deleted: queryBool(false),
  page: optionalQueryInt(PAGE).meta({ description: 'Page number, 1-based. With `page` or `page_size` the answer is that page and `X-Total-Count`; with neither, the whole list.' }),
  page_size: optionalQueryInt({ min: 1, max: 500 }).meta({ description: 'Rows per page (default 50 when `page` is given).' }),
});

function listRoute(tail: keyof typeof LISTS) {
  return defineRoute({
    method: 'get',
    path: `/mediaserver/libraries/{section_id}/${tail}`,
    tag: 'mediaserver',
    summary: `The synced ${tail} of a library section, from the local mirror`,
    description:
      'Soft-deleted items (gone from the server) are excluded unless `include_deleted=true`. Without `page` and `page_size` the whole list is answered, streamed in chunks. With either, one page (`page` default 1, `page_size` default 50) and the number of rows of the whole list in `X-Total-Count`. Tracks come by album, disc and position; everything else by title.',
    access: 'user',
    params: z.object({ section_id: z.string().min(1).max(64) }),
    query: LIST_QUERY,
    response: z.array(MirrorItemRow),
    responseHeaders: { 'X-Total-Count': { description: 'With paging parameters: the rows of the whole list', type: 'integer' } },
    handler: async ({ ctx, params, query, res }) => {
      const paged = query.page !== undefined || query.page_size !== undefined;
      const server = await currentServer(ctx.db);
      const scope = server && { serverId: server.server_id, sectionId: params.section_id, kind: LISTS[tail], includeDeleted: query.include_deleted };
      if (!paged) return scope ? sendJsonArray(res, walkItems(ctx.db, scope)) : [];
      const [total, rows] = scope ? await Promise.all([countItems(ctx.db, scope), listPage(ctx.db, scope, query.page ?? 1, query.page_size ?? 50)]) : [0, []];
      res.setHeader('X-Total-Count', String(total));
      return rows;
    },
  });
}

export const libraryQueryRoutes = [
  defineRoute({
    method: 'get',
    path: '/mediaserver/libraries',
    tag: 'mediaserver',
    summary: "The server's library sections, from the local mirror",
    access: 'user',
    response: z.array(Library),
    handler: async ({ ctx }) => {
      const server = await currentServer(ctx.db);
      if (!server) return [];
      const rows = await ctx.db.selectFrom('mediaserver_sections').selectAll().where('server_id', '=', server.server_id).where('present', '=', true).orderBy('section_id').execute();
      return rows.map((r) => ({ server_id: r.server_id, section_id: r.section_id, type: r.type, title: r.title, agent: r.agent, last_synced_at: r.last_synced_at?.toISOString() ?? null, last_sync: r.last_sync }));
    },
  }),
  ...(Object.keys(LISTS) as (keyof typeof LISTS)[]).map(listRoute),
  defineRoute({
    method: 'get',
    path: '/mediaserver/library/search',
    tag: 'mediaserver',
    summary: 'Substring search over the active synced music library',
    access: 'user',
    query: z.object({
      q: z.string().min(1),
      kind: z.string().default('album').refine((k) => k in SEARCH_KINDS, 'one of artist, album, track'),
      limit: queryInt(10, { min: 1, max: 200 }),
      offset: queryInt(0, OFFSET),
    }),
    response: z.array(MirrorItemRow),
    handler: async ({ ctx, query }) => {
      const server = await currentServer(ctx.db);
      return server ? searchItems(ctx.db, server.server_id, SEARCH_KINDS[query.kind]!, query.q, query.limit, query.offset) : [];
    },
  }),
  defineRoute({
    method: 'get',
    path: '/mediaserver/admin/server',
    tag: 'mediaserver',
    summary: 'Identity of the media server: machine identifier, friendly name, version, platform',
    access: 'admin',
    response: ServerIdentity,
    errors: { 503: 'The media server is not configured and was never seen' },
    handler: async ({ ctx, user }) => {
      const server = await serverOrRefresh(ctx, user.username);
      if (!server) mediaserverClients(ctx).server();
      const s = server!;
      return { server_id: s.server_id, machine_identifier: s.server_id, friendly_name: s.friendly_name, version: s.version, platform: s.platform, platform_version: s.platform_version, listed_at: s.listed_at.toISOString() };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/mediaserver/admin/stats',
    tag: 'mediaserver',
    summary: 'Mirror counts: `entities` active items, `entities_deleted` tombstoned ones, per kind in `by_kind`',
    access: 'admin',
    response: z.object({
      server_id: z.string().nullable(),
      entities: z.number().int(),
      entities_deleted: z.number().int(),
      by_kind: z.record(z.string(), z.object({ active: z.number().int(), deleted: z.number().int() })),
      sections: z.array(Library),
    }),
    handler: async ({ ctx }) => {
      const server = await currentServer(ctx.db);
      if (!server) return { server_id: null, entities: 0, entities_deleted: 0, by_kind: {}, sections: [] };
      const { active, deleted } = await countsByKind(ctx.db, server.server_id);
      const kinds = [...new Set([...Object.keys(active), ...Object.keys(deleted)])].sort();
      const sum = (m: Record<string, number>) => Object.values(m).reduce((a, b) => a + b, 0);
      const sections = await ctx.db.selectFrom('mediaserver_sections').selectAll().where('server_id', '=', server.server_id).orderBy('section_id').execute();
      return {
        server_id: server.server_id,
        entities: sum(active),
        entities_deleted: sum(deleted),
        by_kind: Object.fromEntries(kinds.map((k) => [k, { active: active[k] ?? 0, deleted: deleted[k] ?? 0 }])),
        sections: sections.map((r) => ({ server_id: r.server_id, section_id: r.section_id, type: r.type, title: r.title, agent: r.agent, last_synced_at: r.last_synced_at?.toISOString() ?? null, last_sync: r.last_sync })),
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/mediaserver/admin/non-flac-albums',
    tag: 'mediaserver',
    summary: 'Albums with at least one track that is not lossless FLAC, worst first, from the local mirror only',
    access: 'admin',
    query: z.object({ limit: queryInt(1000, { min: 1, max: 100_000 }) }),
    response: z.array(
      z.object({
        rating_key: z.string(),
        section_id: z.string(),
        title: z.string(),
        artist: z.string().nullable(),
        canonical_id: z.string().nullable(),
        tracks: z.number().int(),
        non_flac_tracks: z.number().int(),
        lossy_tracks: z.number().int(),
        codecs: z.array(z.string()),
      }),
    ),
    handler: async ({ ctx, query }) => {
      const server = await currentServer(ctx.db);
      return server ? nonFlacAlbums(ctx.db, server.server_id, query.limit) : [];
    },
  }),
];
