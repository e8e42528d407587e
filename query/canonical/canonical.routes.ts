import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { defineRoute } from '../../infra/http/define-route.ts';
import { OFFSET, pageQuery, queryInt } from '../../infra/http/params.ts';
import { encodePosition } from '../../infra/eventstore/event-store.ts';
import { LogPoint, atOrBefore, isAt } from '../../infra/eventstore/log-point.ts';
import { docAsOf } from './as-of.ts';
import { searchByName } from './search.queries.ts';
import { JsonText } from '../../infra/http/json-text.ts';
import { NotFound } from '../../shared/errors.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { entityStream } from '../../shared/streams.ts';
import { CanonicalDoc, albumTracks, findDoc, findLiveRow } from '../../projectors/canonical/canonical-docs.reads.ts';

const PLURAL: Record<Kind, string> = { artist: 'artists', album: 'albums', track: 'tracks' };
const idParam = (kind: Kind) => `${kind}_id`;

const HistoryEntry = z.object({
  revision: z.number().int(),
  /** The event's log position: an `as_of` value, and an audit export's bound. */
  position: z.string(),
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
      handler: async ({ ctx, query }) => new JsonText<CanonicalDoc[]>(await searchByName(ctx.db, ctx.engine, { kind, ...query })),
    }),
    defineRoute({
      method: 'get',
      path: `${base}/{${param}}`,
      tag: 'canonical',
      summary: `A canonical ${kind} with every external ref; a merged-away id answers its target`,
      description:
        'With `as_of` (an ISO time, or a log position as the history gives it) the doc as it stood then, folded from the log ' +
        '(merge chains followed as they were then), with `as_of.position`, the newest log position it reflects. See docs/time-travel.md.',
      access: 'user',
      params: Params,
      query: z.object({ as_of: LogPoint.optional() }),
      response: CanonicalDoc.extend({ as_of: z.object({ position: z.string().nullable() }).optional() }),
      errors: { 404: `Unknown ${kind}` },
      handler: async ({ ctx, params, query }) => {
        if (!query.as_of) return (await findDoc(ctx.db, kind, idOf(params))) ?? notFound(kind);
        const then = (await docAsOf(ctx, kind, idOf(params), query.as_of)) ?? notFound(kind);
        return { ...then.doc, as_of: { position: then.position } };
      },
    }),
    defineRoute({
      method: 'get',
      path: `${base}/{${param}}/history`,
      tag: 'canonical',
      summary: `The ${kind}'s events in order: who, when, what, and the evidence of each link`,
      description: '`from` and `to` (ISO times or log positions, both inclusive) bound the events; `page` and `limit` page through them, oldest first.',
      access: 'user',
      params: Params,
      query: z.object({ from: LogPoint.optional(), to: LogPoint.optional(), ...pageQuery(50) }),
      response: z.array(HistoryEntry),
      errors: { 404: `Unknown ${kind}` },
      handler: ({ ctx, params, query }) => history(ctx, kind, idOf(params), query),
    }),
  ];
}

async function history(ctx: AppContext, kind: Kind, id: string, query: { from?: LogPoint; to?: LogPoint; page: number; limit: number }) {
  const all = await ctx.store.readStream(entityStream(kind, id));
  if (all.length === 0) notFound(kind);
  const { from, to } = query;
  const events = all.filter((e) => (!to || atOrBefore(to)(e)) && (!from || !atOrBefore(from)(e) || isAt(from, e)));
  return events.slice((query.page - 1) * query.limit, query.page * query.limit).map((e) => ({
    revision: e.revision,
    position: encodePosition(e.position),
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
