import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { OFFSET, queryInt } from '../../infra/http/params.ts';
import { liveRead } from '../../infra/upstreams/scrobbler/live-read.ts';
import { SEARCH_METHOD, pickerRows, upstreamPage } from '../../infra/upstreams/scrobbler/picker.ts';
import { TTL } from '../../infra/upstreams/scrobbler/proxy-cache.ts';
import { PROXY_ERRORS, str } from './proxy-route.ts';

const PickerRow = z.object({ external_id: z.string(), title: z.string(), subtitle: z.string().nullable(), thumbnail: z.string().nullable() });

export const pickerRoutes = [
  defineRoute({
    method: 'get',
    path: '/scrobbler/picker/search',
    tag: 'scrobbler',
    summary: 'Search the scrobbler for an artist, album or track to pick',
    description:
      'Rows carry the scrobbler ref ids the service builds: the lowercased name for an artist, `<artist>::<name>` for an album or track. The scrobbler is asked for page `offset // limit + 1` of `limit` rows.',
    access: 'user',
    query: z.object({ kind: z.enum(['artist', 'album', 'track']), q: str(), limit: queryInt(20, { min: 1, max: 200 }), offset: queryInt(0, OFFSET) }),
    response: z.array(PickerRow),
    errors: PROXY_ERRORS,
    handler: async ({ ctx, query }) => {
      const { method, param } = SEARCH_METHOD[query.kind];
      const params = { [param]: query.q, page: String(upstreamPage(query.offset, query.limit)), limit: String(query.limit) };
      return pickerRows(query.kind, await liveRead(ctx, { method, params, ttlMs: TTL.search }));
    },
  }),
];
