import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { type Route, defineRoute } from '../../infra/http/define-route.ts';
import { queryBool } from '../../infra/http/params.ts';
import { findLiveRow, refsOf } from '../../projectors/canonical/canonical-docs.reads.ts';
import { NotFound, messageOf } from '../../shared/errors.ts';
import { foldName } from '../../shared/names.ts';
import { log } from '../../infra/logger.ts';
import { BUCKETS, type DiscographyCard, DiscographyCard as Card, shelve } from './discography.ts';
import { catalogCards, metabaseCards, scrobblerCards } from './discography-fallbacks.ts';
import { RelatedArtist, catalogRelated, inLibrary, mergeCandidates, scrobblerSimilar } from './related.ts';

const Params = z.object({ artist_id: z.string().min(1).max(64) });
const Unavailable = z.array(z.object({ source: z.string(), error: z.string() })).meta({ description: 'Sources asked for this page that failed or are not configured: the page is shown without them' });

async function artistOr404(ctx: AppContext, id: string) {
  const artist = await findLiveRow(ctx.db, 'artist', id);
  if (!artist) throw new NotFound('Artist not found');
  const refs = (await refsOf(ctx.db, [artist.id])).get(artist.id) ?? [];
  const ref = (source: string) => refs.find((r) => r.source === source)?.external_id;
  return { artist, ref };
}

/** Asks each source; one that fails (or is not configured) is left out and named, never failing the page. */
async function gather<T>(asks: [string, (() => Promise<T[]>) | undefined][]) {
  const unavailable: { source: string; error: string }[] = [];
  const lists = await Promise.all(
    asks.map(async ([source, ask]) => {
      if (!ask) return [] as T[];
      try {
        return await ask();
      } catch (error) {
        log.warn('artist page: a source failed', { source, error: messageOf(error) });
        unavailable.push({ source, error: messageOf(error) });
        return [] as T[];
      }
    }),
  );
  return { lists, unavailable };
}

/** Fallback cards for releases a canonical album holds already (under any artist) are not fallbacks. */
async function notYetCanonical(ctx: AppContext, cards: DiscographyCard[]): Promise<DiscographyCard[]> {
  const owned = async (source: string, ids: string[]) =>
    ids.length === 0
      ? new Set<string>()
      : new Set((await ctx.db.selectFrom('external_refs').select('external_id').where('kind', '=', 'album').where('source', '=', source).where('external_id', 'in', ids).execute()).map((r) => r.external_id));
  const [mbids, catalogIds] = await Promise.all([
    owned('metabase', cards.flatMap((c) => (c.mbid ? [c.mbid] : []))),
    owned('catalog', cards.flatMap((c) => (c.catalog_id ? [c.catalog_id] : []))),
  ]);
  return cards.filter((c) => !(c.mbid && mbids.has(c.mbid)) && !(c.catalog_id && catalogIds.has(c.catalog_id)));
}

async function discography(ctx: AppContext, id: string) {
  const { artist, ref } = await artistOr404(ctx, id);
  const albums = await ctx.db.selectFrom('canonical_docs').selectAll().where('kind', '=', 'album').where('artist_id', '=', artist.id).where('tombstoned', '=', false).execute();
  const canonical: DiscographyCard[] = albums.map((a) => ({
    id: a.id, title: a.name ?? '', title_folded: a.name_folded ?? foldName(a.name ?? ''), year: a.year, primary_type: a.primary_type, secondary_types: a.secondary_types,
    cover_url: a.cover_url, origin: 'canonical', canonical: true, playable: a.sources.mediaserver === true, mbid: a.mbid, catalog_id: null,
  }));
  const mbid = ref('metabase');
  const catalogId = ref('catalog');
  const { lists, unavailable } = await gather<DiscographyCard>([
    ['metabase', mbid ? () => metabaseCards(ctx, mbid) : undefined],
    ['catalog', catalogId ? () => catalogCards(ctx, catalogId) : undefined],
    ['scrobbler', artist.name ? () => scrobblerCards(ctx, artist.name!) : undefined],
  ]);
  const fallbacks = await notYetCanonical(ctx, lists.flat());
  return { artist_id: artist.id, artist_name: artist.name, buckets: shelve([...canonical, ...fallbacks]), unavailable };
}

const AFFILIATION_COLUMNS = ['members', 'member_of', 'affiliations'] as const;
const Affiliation = z.object({
  name: z.string(), mbid: z.string(), relation: z.string(), begin: z.string().nullable(), end: z.string().nullable(), ended: z.boolean(),
  in_library: z.boolean(), canonical_id: z.string().nullable(),
});
type Tie = Omit<z.infer<typeof Affiliation>, 'in_library' | 'canonical_id'>;

async function related(ctx: AppContext, id: string, sort: 'relevance' | 'alpha', inLibraryOnly: boolean) {
  const { artist, ref } = await artistOr404(ctx, id);
  const catalogId = ref('catalog');
  const { lists, unavailable } = await gather([
    ['catalog', catalogId ? () => catalogRelated(ctx, catalogId) : undefined],
    ['scrobbler', artist.name ? () => scrobblerSimilar(ctx, artist.name!) : undefined],
  ]);
  const candidates = mergeCandidates(lists).filter((c) => c.name_folded !== artist.name_folded);
  const owners = await inLibrary(ctx.db, candidates);
  let people = candidates.map((c, i) => ({ ...c, canonical_id: owners[i] ?? null, in_library: owners[i] != null })).filter((c) => c.canonical_id !== artist.id);
  if (inLibraryOnly) people = people.filter((c) => c.in_library);
  people.sort(sort === 'alpha' ? (a, b) => a.name_folded.localeCompare(b.name_folded) : (a, b) => b.score - a.score || a.name_folded.localeCompare(b.name_folded));
  const ties = AFFILIATION_COLUMNS.flatMap((column) => (artist[column] ?? []) as Tie[]);
  const tieOwners = await inLibrary(ctx.db, ties.map((t) => ({ name_folded: foldName(t.name), catalog_id: null, mbid: t.mbid })));
  const affiliations = ties.map((t, i) => ({ ...t, canonical_id: tieOwners[i] ?? null, in_library: tieOwners[i] != null }));
  return { artist_id: artist.id, artist_name: artist.name, related: people, affiliations, unavailable };
}

export const artistPageRoutes: Route[] = [
  defineRoute({
    method: 'get',
    path: '/artists/{artist_id}/discography',
    tag: 'canonical',
    summary: "The artist's releases on five shelves (Studio, Live, Compilations, EPs & Singles, Other), newest first",
    description:
      'Canonical albums first, then fallback cards for releases not in the library yet, from the metabase (release groups), the catalog and the scrobbler (top albums), each folded title once. A source that fails is left out and named in `unavailable`.',
    access: 'user',
    params: Params,
    response: z.object({
      artist_id: z.string(),
      artist_name: z.string().nullable(),
      buckets: z.array(z.object({ name: z.enum(BUCKETS), items: z.array(Card) })),
      unavailable: Unavailable,
    }),
    errors: { 404: 'Unknown artist' },
    handler: ({ ctx, params }) => discography(ctx, params.artist_id),
  }),
  defineRoute({
    method: 'get',
    path: '/artists/{artist_id}/related',
    tag: 'canonical',
    summary: 'Related artists (the catalog’s related and the scrobbler’s similar, merged), and the metabase affiliations',
    description:
      'Each related artist is flagged `in_library`; `in_library_only=true` keeps those only. `affiliations` (members, member of, subgroup, founder, collaborator, tribute, family) are always all returned, never filtered.',
    access: 'user',
    params: Params,
    query: z.object({ sort: z.enum(['relevance', 'alpha']).default('relevance'), in_library_only: queryBool(false) }),
    response: z.object({ artist_id: z.string(), artist_name: z.string().nullable(), related: z.array(RelatedArtist), affiliations: z.array(Affiliation), unavailable: Unavailable }),
    errors: { 404: 'Unknown artist' },
    handler: ({ ctx, params, query }) => related(ctx, params.artist_id, query.sort, query.in_library_only),
  }),
];
