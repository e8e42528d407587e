import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { AlbumCollectionRow, listAlbums } from './album-collection.queries.ts';
import { FavoriteRow, listFavorites } from './favorites.queries.ts';

const PLURAL: Record<Kind, string> = { artist: 'artists', album: 'albums', track: 'tracks' };

const favoritesRoute = (kind: Kind) =>
  defineRoute({
    method: 'get',
    path: `/me/favorites/${PLURAL[kind]}`,
    tag: 'me',
    summary: `The caller's favorite ${PLURAL[kind]}, newest first`,
    description: 'Each row is the canonical doc (merged-away ids answer the end of their chain) with `added_at`.',
    access: 'user',
    response: z.array(FavoriteRow),
    handler: ({ ctx, user }) => listFavorites(ctx.db, usernameKey(user.username), kind),
  });

const albumsRoute = (list: 'wishlist' | 'owned') =>
  defineRoute({
    method: 'get',
    path: `/me/albums/${list}`,
    tag: 'me',
    summary: list === 'owned' ? "The caller's owned albums, newest first" : "The caller's wishlist, newest first",
    description: 'Owned albums moved from the wishlist keep `wishlisted_at`.',
    access: 'user',
    response: z.array(AlbumCollectionRow),
    handler: ({ ctx, user }) => listAlbums(ctx.db, usernameKey(user.username), { status: list === 'owned' ? 'owned' : 'wishlisted' }),
  });

export const meQueryRoutes = [favoritesRoute('artist'), favoritesRoute('album'), favoritesRoute('track'), albumsRoute('wishlist'), albumsRoute('owned')];
