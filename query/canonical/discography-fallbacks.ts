import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { cachedCatalog } from '../../infra/upstreams/catalog/cache.ts';
import { catalogClient } from '../../infra/upstreams/catalog/client.ts';
import { releaseTypes, yearOf } from '../../infra/upstreams/catalog/deezer.ts';
import { metabase } from '../../infra/upstreams/metabase/metabase.ts';
import { MBID_PATTERN } from '../../infra/upstreams/metabase/musicbrainz.ts';
import { liveRead } from '../../infra/upstreams/scrobbler/live-read.ts';
import { TTL } from '../../infra/upstreams/scrobbler/proxy-cache.ts';
import { type DiscographyCard, fallbackCard } from './discography.ts';

/** Release groups an artist page asks the metabase for (one browse page). */
const METABASE_PAGE = 100;
const SCROBBLER_ALBUMS = 50;

const ReleaseGroups = z.looseObject({
  'release-groups': z.array(
    z.looseObject({ id: z.string(), title: z.string(), 'primary-type': z.string().nullable().optional(), 'secondary-types': z.array(z.string()).optional(), 'first-release-date': z.string().optional() }),
  ),
});

/** The artist's release groups in the metabase, with the archive's front cover of each. */
export async function metabaseCards(ctx: AppContext, mbid: string): Promise<DiscographyCard[]> {
  if (!MBID_PATTERN.test(mbid)) return [];
  const groups = ReleaseGroups.parse(await metabase(ctx).releaseGroupsOf(mbid, METABASE_PAGE, 0))['release-groups'];
  return groups.map((g) =>
    fallbackCard('metabase', {
      title: g.title,
      year: yearOf(g['first-release-date']) ?? null,
      primary_type: g['primary-type'] ?? null,
      secondary_types: g['secondary-types'] ?? [],
      cover_url: `${ctx.config.COVERART_API_URL}/release-group/${g.id}/front-250`,
      mbid: g.id,
    }),
  );
}

/** The artist's albums, singles and compilations in the catalog. */
export async function catalogCards(ctx: AppContext, catalogId: string): Promise<DiscographyCard[]> {
  const page = await cachedCatalog(ctx.db, catalogClient(ctx.config)).artistAlbums(catalogId);
  return page.data.map((a) => {
    const types = releaseTypes(a.record_type);
    return fallbackCard('catalog', {
      title: a.title,
      year: yearOf(a.release_date) ?? null,
      primary_type: types.primary_type ?? null,
      secondary_types: types.secondary_types ?? [],
      cover_url: a.cover_medium ?? a.cover ?? null,
      catalog_id: String(a.id),
    });
  });
}

const TopAlbums = z.looseObject({
  topalbums: z.looseObject({
    album: z.preprocess(
      (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
      z.array(z.looseObject({ name: z.string(), mbid: z.string().optional(), image: z.array(z.looseObject({ '#text': z.string().optional() })).optional() })),
    ),
  }),
});

/** The artist's most listened albums on the scrobbler (no release types: they shelve as Other unless known elsewhere). */
export async function scrobblerCards(ctx: AppContext, artistName: string): Promise<DiscographyCard[]> {
  const answer = await liveRead(ctx, { method: 'artist.getTopAlbums', params: { artist: artistName, limit: String(SCROBBLER_ALBUMS) }, ttlMs: TTL.catalog });
  // The scrobbler lists tracks with no album under the album "(null)".
  return TopAlbums.parse(answer).topalbums.album.filter((a) => a.name.trim() !== '' && a.name !== '(null)').map((a) =>
    fallbackCard('scrobbler', {
      title: a.name,
      cover_url: [...(a.image ?? [])].reverse().find((i) => i['#text'])?.['#text'] ?? null,
      mbid: a.mbid && MBID_PATTERN.test(a.mbid) ? a.mbid.toLowerCase() : null,
    }),
  );
}
