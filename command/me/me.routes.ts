import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import { AlbumCollectionRow, type CollectionStatus } from '../../query/me/album-collection.queries.ts';
import { FavoriteRow } from '../../query/me/favorites.queries.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { Removed, addAlbumAnswer, addFavoriteAnswer, removeAlbumAnswer, removeFavoriteAnswer } from './me-answers.ts';
import { TargetBody, targetId } from './target.ts';

const PLURAL: Record<Kind, string> = { artist: 'artists', album: 'albums', track: 'tracks' };
const IdParams = z.object({ canonical_id: z.string().min(1).max(64) });
const BODY_NOTE = 'Either id is enough; a catalog id alone is resolved through the catalog and seeds the canonical when missing. Adding twice changes nothing.';
const ERRORS = { 404: 'Unknown canonical id, or nothing in the catalog under that id', 502: 'The catalog failed' };

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
      handler: async ({ ctx, body, user }) => addFavoriteAnswer(ctx, user, kind, await targetId(ctx, user, kind, body)),
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
      handler: ({ ctx, params, user }) => removeFavoriteAnswer(ctx, user, kind, params.canonical_id),
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
      handler: async ({ ctx, body, user }) => addAlbumAnswer(ctx, user, status, await targetId(ctx, user, 'album', body)),
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
      handler: ({ ctx, params, user }) => removeAlbumAnswer(ctx, user, status, params.canonical_id),
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
