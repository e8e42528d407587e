import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import type { Database } from '../../infra/db/database.ts';
import type { SessionUser } from '../../infra/http/auth.ts';
import { type AlbumCollectionRow, type CollectionStatus, listAlbums } from '../../query/me/album-collection.queries.ts';
import { type FavoriteRow, listFavorites } from '../../query/me/favorites.queries.ts';
import { findDoc } from '../../query/canonical/canonical.queries.ts';
import { NotFound } from '../../shared/errors.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { meCommands } from './me-commands.ts';

/**
 * The personal-data writes as the routes answer them, shared by every way of naming the entity
 * (`/me` by canonical or catalog id, `/scrobbler/me` by name): one store of favorites and albums.
 */

/** What a removal answers; `removed: false` when the caller had nothing there. */
export const Removed = z.object({ kind: z.string(), canonical_id: z.string(), removed: z.boolean() });
type RemovedAnswer = z.infer<typeof Removed>;

/** The answer when the read model has not caught up within the bounded wait: the write is durable all the same. */
async function docOf(db: Kysely<Database>, kind: Kind, id: string) {
  const doc = await findDoc(db, kind, id);
  if (!doc) throw new NotFound(`${kind} not found`);
  return doc;
}

export async function addFavoriteAnswer(ctx: AppContext, user: SessionUser, kind: Kind, id: string): Promise<FavoriteRow> {
  const done = await meCommands(ctx, user).addFavorite(kind, id);
  await ctx.settle(done.position);
  await ctx.settleReactions(done.position);
  const row = (await listFavorites(ctx.db, usernameKey(user.username), kind, done.canonicalId))[0];
  return row ?? { ...(await docOf(ctx.db, kind, done.canonicalId)), canonical_id: done.canonicalId, added_at: new Date().toISOString() };
}

export async function removeFavoriteAnswer(ctx: AppContext, user: SessionUser, kind: Kind, id: string): Promise<RemovedAnswer> {
  const done = await meCommands(ctx, user).removeFavorite(kind, id);
  await ctx.settle(done.position);
  await ctx.settleReactions(done.position);
  return { kind, canonical_id: done.canonicalId, removed: done.changed };
}

export async function addAlbumAnswer(ctx: AppContext, user: SessionUser, status: CollectionStatus, id: string): Promise<AlbumCollectionRow> {
  const commands = meCommands(ctx, user);
  const done = status === 'owned' ? await commands.addToOwned(id) : await commands.addToWishlist(id);
  await ctx.settle(done.position);
  const row = (await listAlbums(ctx.db, usernameKey(user.username), { only: done.canonicalId }))[0];
  if (row) return row;
  const at = new Date().toISOString();
  return { ...(await docOf(ctx.db, 'album', done.canonicalId)), canonical_id: done.canonicalId, status, wishlisted_at: status === 'owned' ? null : at, owned_at: status === 'owned' ? at : null, added_at: at };
}

export async function removeAlbumAnswer(ctx: AppContext, user: SessionUser, status: CollectionStatus, id: string): Promise<RemovedAnswer> {
  const commands = meCommands(ctx, user);
  const done = status === 'owned' ? await commands.removeFromOwned(id) : await commands.removeFromWishlist(id);
  await ctx.settle(done.position);
  return { kind: 'album', canonical_id: done.canonicalId, removed: done.changed };
}
