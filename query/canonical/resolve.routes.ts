import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { defineRoute } from '../../infra/http/define-route.ts';
import { NotFound } from '../../shared/errors.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { CanonicalDoc, entityByRef, findDoc } from '../../projectors/canonical/canonical-docs.reads.ts';
import { mediaserverExternalId } from '../../shared/canonical/external-ids.ts';

const PLURAL: Record<Kind, string> = { artist: 'artists', album: 'albums', track: 'tracks' };

const ResolveQuery = z.object({
  catalog: z.string().min(1).optional(),
  mbid: z.string().min(1).optional(),
  upc: z.string().min(1).optional(),
  isrc: z.string().min(1).optional(),
  mediaserver_server: z.string().min(1).optional(),
  mediaserver_rating_key: z.string().min(1).optional(),
  scrobbler: z.string().min(1).optional(),
});
type ResolveQuery = z.infer<typeof ResolveQuery>;

/** Tries each signal the query carries, exact refs first; undefined when none resolves. */
async function resolveLocal(ctx: AppContext, kind: Kind, q: ResolveQuery): Promise<string | undefined> {
  const byRef = (source: string, externalId: string) => entityByRef(ctx.db, kind, source, externalId);
  const byColumn = async (column: 'mbid' | 'upc' | 'isrc', value: string) =>
    (await ctx.db.selectFrom('canonical_docs').select('id').where('kind', '=', kind).where('tombstoned', '=', false).where(column, '=', value).orderBy('created_at').executeTakeFirst())?.id;
  const tries: (() => Promise<string | undefined>)[] = [];
  if (q.catalog) tries.push(() => byRef('catalog', q.catalog!));
  if (q.mbid) tries.push(() => byRef('metabase', q.mbid!), () => byColumn('mbid', q.mbid!));
  if (q.upc && kind === 'album') tries.push(() => byColumn('upc', q.upc!));
  if (q.isrc && kind === 'track') tries.push(() => byColumn('isrc', q.isrc!));
  if (q.mediaserver_server && q.mediaserver_rating_key) tries.push(() => byRef('mediaserver', mediaserverExternalId(q.mediaserver_server!, q.mediaserver_rating_key!)));
  if (q.scrobbler) tries.push(() => byRef('scrobbler', kind === 'artist' ? q.scrobbler!.toLowerCase() : q.scrobbler!));
  for (const attempt of tries) {
    const id = await attempt();
    if (id) return id;
  }
  return undefined;
}

function kindResolveRoutes(kind: Kind) {
  return [
    defineRoute({
      method: 'get',
      path: `/${PLURAL[kind]}/resolve`,
      tag: 'canonical',
      summary: `Resolve a ${kind} by an external ref or identifier`,
      description:
        'Signals are tried exact refs first. When `catalog` is given and no canonical owns it, the entity is fetched from the catalog provider (cached), reconciled (an album brings its tracks and artist), then resolved. A `scrobbler` id (`<artist>::<title>` for albums and tracks) unknown here is fetched from the scrobbler and reconciled, then resolved. 404 when nothing resolves or the upstream has no such id.',
      access: 'user',
      query: ResolveQuery,
      response: CanonicalDoc,
      errors: { 404: 'Nothing resolves', 502: 'The catalog provider or the scrobbler failed' },
      handler: async ({ ctx, query, user }) => {
        let id = await resolveLocal(ctx, kind, query);
        const write = ctx.commands.resolve;
        if (!id && query.catalog) id = await write.seedFromCatalog(kind, query.catalog, user.username);
        if (!id && query.scrobbler) {
          id = kind === 'artist' ? await write.reconcileScrobblerArtist(query.scrobbler, user.username) : await write.reconcileFromScrobbler(kind, query.scrobbler, user.username);
        }
        const doc = id ? await findDoc(ctx.db, kind, id) : undefined;
        if (!doc) throw new NotFound(`No ${kind} resolves from the given parameters`);
        return doc;
      },
    }),
  ];
}

/** `/{artists,albums,tracks}/resolve`: listed before the `{id}` routes of the same prefix. */
export const resolveRoutes = (['artist', 'album', 'track'] as const).flatMap(kindResolveRoutes);
