import { sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { defineRoute } from '../../infra/http/define-route.ts';
import { OFFSET, queryInt } from '../../infra/http/params.ts';
import { NotFound } from '../../shared/errors.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { entityStream } from '../../shared/streams.ts';
import { foldName } from '../../shared/names.ts';
import { CanonicalDoc, LIST_COLUMNS, albumTracks, findDoc, findLiveRow, toDoc } from '../../projectors/canonical/canonical-docs.reads.ts';

const PLURAL: Record<Kind, string> = { artist: 'artists', album: 'albums', track: 'tracks' };
const idParam = (kind: Kind) => `${kind}_id`;

const HistoryEntry = z.object({
  revision: z.number().int(),
  type: z.string(),
  at: z.string(),
  actor: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});

function kindRoutes(kind: Kind) {
  const base = `/${PLURAL[kind]}`;
  const param = idParam(kind);
  const Params = z.object({ [param]: z.string().min(1).max(64) });
  const idOf = (params: Record<string, string>) => params[param]!;
  return [
    defineRoute({
      method: 'get',
      path: `${base}/search`,
      tag: 'canonical',
      summary: `Search canonical ${PLURAL[kind]} by name`,
      access: 'user',
      query: z.object({ q: z.string().default(''), limit: queryInt(20, { min: 1, max: 200 }), offset: queryInt(0, OFFSET) }),
      response: z.array(CanonicalDoc),
      handler: async ({ ctx, query }) => {
        const folded = foldName(query.q);
        // The refs come in the same round trip, as docsFor would order them.
        const refs = sql<{ source: string; external_id: string }[]>`(select coalesce(json_agg(json_build_object('source', r.source, 'external_id', r.external_id)
          order by r.source, r.external_id), '[]') from external_refs r where r.entity_id = canonical_docs.id)`;
        let rows = ctx.db.selectFrom('canonical_docs').select(LIST_COLUMNS).select(refs.as('refs')).where('kind', '=', kind).where('tombstoned', '=', false);
        if (query.q.trim()) rows = rows.where('name_folded', 'like', `%${folded.replace(/[%_\\]/g, '\\$&')}%`);
        const found = await rows.orderBy('source_count', 'desc').orderBy('name_folded').orderBy('id').limit(query.limit).offset(query.offset).execute();
        return found.map(({ refs: linked, ...row }) => toDoc(row, linked));
      },
    }),
    defineRoute({
      method: 'get',
      path: `${base}/{${param}}`,
      tag: 'canonical',
      summary: `A canonical ${kind} with every external ref; a merged-away id answers its target`,
      access: 'user',
      params: Params,
      response: CanonicalDoc,
      errors: { 404: `Unknown ${kind}` },
      handler: async ({ ctx, params }) => (await findDoc(ctx.db, kind, idOf(params))) ?? notFound(kind),
    }),
    defineRoute({
      method: 'get',
      path: `${base}/{${param}}/history`,
      tag: 'canonical',
      summary: `The ${kind}'s events in order: who, when, what, and the evidence of each link`,
      access: 'user',
      params: Params,
      response: z.array(HistoryEntry),
      errors: { 404: `Unknown ${kind}` },
      handler: ({ ctx, params }) => history(ctx, kind, idOf(params)),
    }),
  ];
}

async function history(ctx: AppContext, kind: Kind, id: string) {
  const events = await ctx.store.readStream(entityStream(kind, id));
  if (events.length === 0) notFound(kind);
  return events.map((e) => ({
    revision: e.revision,
    type: e.type,
    at: (e.data as { at?: string }).at ?? e.createdAt.toISOString(),
    actor: (e.metadata.actor as string | null | undefined) ?? null,
    data: e.data as Record<string, unknown>,
  }));
}

function notFound(kind: Kind): never {
  throw new NotFound(`${kind[0]!.toUpperCase()}${kind.slice(1)} not found`);
}

export const canonicalRoutes = [
  ...kindRoutes('artist'),
  ...kindRoutes('album'),
  ...kindRoutes('track'),
  defineRoute({
    method: 'get',
    path: '/albums/{album_id}/tracks',
    tag: 'canonical',
    summary: "The album's tracklist from every source, by disc then track number (nulls last)",
    access: 'user',
    params: z.object({ album_id: z.string().min(1).max(64) }),
    response: z.array(CanonicalDoc),
    errors: { 404: 'Unknown album' },
    handler: async ({ ctx, params }) => {
      const album = await findLiveRow(ctx.db, 'album', params.album_id);
      if (!album) notFound('album');
      return albumTracks(ctx.db, album.id);
    },
  }),
];
