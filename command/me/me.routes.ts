import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../infra/db/database.ts';
import { defineRoute } from '../../infra/http/define-route.ts';
import { AlbumCollectionRow, type CollectionStatus, listAlbums } from '../../query/me/album-collection.queries.ts';
import { FavoriteRow, listFavorites } from '../../query/me/favorites.queries.ts';
import { findDoc } from '../../query/canonical/canonical.queries.ts';
import { NotFound } from '../../shared/errors.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { meCommands } from './me-commands.ts';
import { TargetBody, targetId } from './target.ts';

const PLURAL: Record<Kind, string> = { artist: 'artists', album: 'albums', track: 'tracks' };
const IdParams = z.object({ canonical_id: z.string().min(1).max(64) });
const Removed = z.object({ kind: z.string(), canonical_id: z.string(), removed: z.boolean() });
const BODY_NOTE = 'Either id is enough; a catalog id alone is resolved through the catalog and seeds the canonical when missing. Adding twice changes nothing.';
const ERRORS = { 404: 'Unknown canonical id, or nothing in the catalog under that id', 502: 'The catalog failed' };

/** The answer when the read model has not caught up within the bounded wait: the write is durable all the same. */
async function docOf(db: Kysely<Database>, kind: Kind, id: string) {
  const doc = await findDoc(db, kind, id);
  if (!doc) throw new NotFound(`${kind} not found`);
  return doc;
}

function favoriteRoutes(kind: Kind) {
  const path = `/me/favorites/${PLURAL[kind]}`;
  return [
    defineRoute({
      method: 'post',
      path,
      tag: 'me',
      summary: `Add a ${kind} to the caller's favorites`,
      description: BODY_NOTE,
      access: 'user',
      body: TargetBody,
      response: FavoriteRow,
      errors: ERRORS,
      handler: async ({ ctx, body, user }) => {
        const done = await meCommands(ctx, user).addFavorite(kind, await targetId(ctx, user, kind, body));
        await ctx.settle(done.position);
        const row = (await listFavorites(ctx.db, usernameKey(user.username), kind, done.canonicalId))[0];
        return row ?? { ...(await docOf(ctx.db, kind, done.canonicalId)), canonical_id: done.canonicalId, added_at: new Date().toISOString() };
      },
    }),
    defineRoute({
      method: 'delete',
      path: `${path}/{canonical_id}`,
      tag: 'me',
      summary: `Remove a ${kind} from the caller's favorites`,
      description: 'Any id of the merge chain removes the favorite; removing what is not there answers `removed: false`.',
      access: 'user',
      params: IdParams,
      response: Removed,
      errors: { 404: `Unknown ${kind}` },
      handler: async ({ ctx, params, user }) => {
        const done = await meCommands(ctx, user).removeFavorite(kind, params.canonical_id);
        await ctx.settle(done.position);
        return { kind, canonical_id: done.canonicalId, removed: done.changed };
      },
    }),
  ];
}

function albumListRoutes(list: 'wishlist' | 'owned', status: CollectionStatus) {
  const path = `/me/albums/${list}`;
  return [
    defineRoute({
      method: 'post',
      path,
      tag: 'me',
      summary: list === 'owned' ? 'Mark an album as owned; from the wishlist it moves, keeping `wishlisted_at`' : 'Add an album to the wishlist',
      description: `${BODY_NOTE}${list === 'wishlist' ? ' An owned album stays owned (the answer shows `status: owned`).' : ''}`,
      access: 'user',
      body: TargetBody,
      response: AlbumCollectionRow,
      errors: ERRORS,
      handler: async ({ ctx, body, user }) => {
        const commands = meCommands(ctx, user);
        const id = await targetId(ctx, user, 'album', body);
        const done = status === 'owned' ? await commands.addToOwned(id) : await commands.addToWishlist(id);
        await ctx.settle(done.position);
        const row = (await listAlbums(ctx.db, usernameKey(user.username), { only: done.canonicalId }))[0];
        if (row) return row;
        const at = new Date().toISOString();
        return { ...(await docOf(ctx.db, 'album', done.canonicalId)), canonical_id: done.canonicalId, status, wishlisted_at: status === 'owned' ? null : at, owned_at: status === 'owned' ? at : null, added_at: at };
      },
    }),
    defineRoute({
      method: 'delete',
      path: `${path}/{canonical_id}`,
      tag: 'me',
      summary: `Remove an album from the ${list === 'owned' ? 'owned list' : 'wishlist'}`,
      description: 'Any id of the merge chain removes it; removing what is not there answers `removed: false`.',
      access: 'user',
      params: IdParams,
      response: Removed,
      errors: { 404: 'Unknown album' },
      handler: async ({ ctx, params, user }) => {
        const commands = meCommands(ctx, user);
        const done = status === 'owned' ? await commands.removeFromOwned(params.canonical_id) : await commands.removeFromWishlist(params.canonical_id);
        await ctx.settle(done.position);
        return { kind: 'album', canonical_id: done.canonicalId, removed: done.changed };
      },
    }),
  ];
}

export const meWriteRoutes = [
  ...favoriteRoutes('artist'),
  ...favoriteRoutes('album'),
  ...favoriteRoutes('track'),
  ...albumListRoutes('wishlist', 'wishlisted'),
  ...albumListRoutes('owned', 'owned'),
];
