import { z } from 'zod';
import { type Route, defineRoute } from '../../infra/http/define-route.ts';
import { OFFSET, queryBool, queryInt } from '../../infra/http/params.ts';
import { metabase } from '../../infra/upstreams/metabase/metabase.ts';
import { type EntityKind, MBID_PATTERN, METABASE_MAX_LIMIT, SEARCHABLE } from '../../infra/upstreams/metabase/musicbrainz.ts';
import { NotFound } from '../../shared/errors.ts';

/** Answers keep the metabase's own JSON shape (its kebab-case keys, `count`/`offset` paging). */
const Proxied = z.record(z.string(), z.unknown()).meta({ description: 'The metabase’s answer, in its own shape' });
const Mbid = z.string().regex(MBID_PATTERN, 'must be an MBID (a UUID such as 5b11f4ce-a62d-471e-81fc-a69a8278c7da)');
const refresh = { refresh: queryBool(false) };
const ERRORS = { 404: 'The metabase has no such entity', 502: 'The metabase failed (or kept answering 503 after its backoff)' };

const PLURAL: Record<EntityKind, string> = {
  artist: 'artists', 'release-group': 'release-groups', release: 'releases', recording: 'recordings', label: 'labels', work: 'works', area: 'areas',
};

const searchRoutes = SEARCHABLE.map((entity) =>
  defineRoute({
    method: 'get',
    path: `/metabase/search/${PLURAL[entity]}`,
    tag: 'metabase',
    summary: `Search the metabase's ${PLURAL[entity]} (cached a day)`,
    description: '`q` is the metabase’s search query (Lucene syntax, as its own search takes it).',
    access: 'user',
    query: z.object({ q: z.string().trim().min(1).max(500), limit: queryInt(25, { min: 1, max: METABASE_MAX_LIMIT }), offset: queryInt(0, OFFSET) }),
    response: Proxied,
    errors: { 502: ERRORS[502] },
    handler: ({ ctx, query }) => metabase(ctx).search(entity, query.q, query.limit, query.offset),
  }),
);

const lookupRoutes = (Object.keys(PLURAL) as EntityKind[]).map((kind) =>
  defineRoute({
    method: 'get',
    path: `/metabase/${PLURAL[kind]}/{mbid}`,
    tag: 'metabase',
    summary: `One ${kind} of the metabase, with its relations (cached; \`refresh=true\` fetches it again)`,
    access: 'user',
    params: z.object({ mbid: Mbid }),
    query: z.object(refresh),
    response: Proxied,
    errors: ERRORS,
    handler: ({ ctx, params, query }) => metabase(ctx).lookup(kind, params.mbid, { refresh: query.refresh }),
  }),
);

const coverArtRoutes = (['release-group', 'release'] as const).map((kind) =>
  defineRoute({
    method: 'get',
    path: `/metabase/${PLURAL[kind]}/{mbid}/cover-art`,
    tag: 'metabase',
    summary: `The cover art archive's images of a ${kind} (cached a week; \`refresh=true\` asks again)`,
    access: 'user',
    params: z.object({ mbid: Mbid }),
    query: z.object(refresh),
    response: Proxied,
    errors: { 404: 'The archive has no cover art for it', 502: 'The cover art archive failed' },
    handler: ({ ctx, params, query }) => metabase(ctx).coverArt(kind, params.mbid, { refresh: query.refresh }),
  }),
);

export const metabaseProxyRoutes: Route[] = [
  ...searchRoutes,
  defineRoute({
    method: 'get',
    path: '/metabase/releases/by-barcode/{upc}',
    tag: 'metabase',
    summary: 'The release carrying a barcode (cached after the first look-up, misses too)',
    description: 'A 12-digit UPC also finds its 13-digit EAN twin (asked second, when the barcode as given finds nothing). When several releases carry it, an official one answers first.',
    access: 'user',
    params: z.object({ upc: z.string().regex(/^\d{1,20}$/, 'must be a barcode: digits only') }),
    response: Proxied,
    errors: { 404: 'No release carries this barcode', 502: ERRORS[502] },
    handler: async ({ ctx, params }) => {
      const { releases } = await metabase(ctx).releasesByBarcode(params.upc);
      const official = releases.find((r) => r.status === 'Official') ?? releases[0];
      if (!official) throw new NotFound(`No release carries barcode ${params.upc}`);
      return official;
    },
  }),
  ...lookupRoutes,
  ...coverArtRoutes,
  defineRoute({
    method: 'get',
    path: '/metabase/artists/{mbid}/release-groups',
    tag: 'metabase',
    summary: "An artist's release groups (the metabase's browse, cached a week)",
    access: 'user',
    params: z.object({ mbid: Mbid }),
    query: z.object({ limit: queryInt(100, { min: 1, max: METABASE_MAX_LIMIT }), offset: queryInt(0, OFFSET) }),
    response: Proxied,
    errors: { 502: ERRORS[502] },
    handler: ({ ctx, params, query }) => metabase(ctx).releaseGroupsOf(params.mbid, query.limit, query.offset),
  }),
];
