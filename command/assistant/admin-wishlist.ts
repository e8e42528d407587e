import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import type { Database } from '../../infra/db/database.ts';
import { bodyInt } from '../../infra/http/params.ts';
import { NotFound, UpstreamNotFound } from '../../shared/errors.ts';
import type { SessionUser } from '../../shared/users.ts';
import { canonicalCommands } from '../canonical/canonical-commands.ts';
import { seedFromCatalog } from '../canonical/catalog-seed.ts';
import { catalogExternalId } from '../canonical/catalog-observations.ts';
import { meCommands } from '../me/me-commands.ts';

const MBID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Exact external ids only: a catalog album id, a metabase id (MBID), or both. Never a name. */
export const WishlistBody = z
  .object({
    catalog_id: z.union([bodyInt({ min: 1, max: 999_999_999_999_999 }), z.string().regex(/^\d{1,15}$/, 'a catalog id is an integer')]).nullish(),
    mbid: z.string().regex(MBID, 'an MBID is a UUID').nullish(),
  })
  .refine((b) => (b.catalog_id !== undefined && b.catalog_id !== null) || !!b.mbid, { message: 'catalog_id or mbid is required', path: ['catalog_id'] });
export type WishlistBody = z.infer<typeof WishlistBody>;

export type ResolvedBy = 'catalog_id' | 'mbid';

export interface Resolved {
  albumId: string;
  resolvedBy: ResolvedBy;
  /** The canonical album was created by this call (seeded from the catalog). */
  seeded: boolean;
}

/**
 * Resolves the album by exact id (the catalog id first, seeding the canonical album from the
 * catalog when missing, then the MBID against the canonical layer) and puts it on the admin's own
 * wishlist with the same command `/me/albums/wishlist` runs.
 */
export async function wishlistByExactId(ctx: AppContext, user: SessionUser, body: WishlistBody): Promise<Resolved & { canonicalId: string }> {
  const resolved = await resolveAlbum(ctx, user, body);
  const done = await meCommands(ctx, user).addToWishlist(resolved.albumId);
  return { ...resolved, canonicalId: done.canonicalId };
}

async function resolveAlbum(ctx: AppContext, user: SessionUser, body: WishlistBody): Promise<Resolved> {
  const catalogId = body.catalog_id ?? null;
  if (catalogId !== null) {
    try {
      const known = await canonicalCommands(ctx, user.username).owner('album', { source: 'catalog', external_id: catalogExternalId(catalogId) });
      const albumId = await seedFromCatalog(ctx, 'album', catalogId, user.username);
      return { albumId, resolvedBy: 'catalog_id', seeded: known === null };
    } catch (error) {
      // The catalog has no such album: the MBID may still name one. Any other failure stands.
      if (!body.mbid || !(error instanceof NotFound || error instanceof UpstreamNotFound)) throw error;
    }
  }
  const commands = canonicalCommands(ctx, user.username);
  const byMbid = (await commands.owner('album', { source: 'metabase', external_id: body.mbid!.toLowerCase() })) ?? (await albumWithMbid(ctx.db, body.mbid!));
  if (byMbid) return { albumId: await commands.finalId('album', byMbid), resolvedBy: 'mbid', seeded: false };
  throw new NotFound(
    catalogId === null
      ? `No canonical album carries the MBID ${body.mbid}: seeding from the metabase is not available, add it by its catalog id`
      : `Neither the catalog album ${catalogId} nor the MBID ${body.mbid} names an album`,
  );
}

/** An album whose doc carries exactly this MBID (reported by a source other than the metabase). */
async function albumWithMbid(db: Kysely<Database>, mbid: string): Promise<string | undefined> {
  const wanted = mbid.toLowerCase();
  const row = await db
    .selectFrom('canonical_docs')
    .select('id')
    .where('kind', '=', 'album')
    .where(sql<boolean>`not tombstoned`)
    .where(sql<boolean>`lower(mbid) = ${wanted}`)
    .orderBy('source_count', 'desc')
    .orderBy('id')
    .executeTakeFirst();
  return row?.id;
}
