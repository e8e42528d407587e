import { z } from 'zod';
import { defineRoute } from '../../infra/http/define-route.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { AlbumCollectionRow, listAlbums } from '../me/album-collection.queries.ts';
import { FavoriteRow, listFavorites } from '../me/favorites.queries.ts';

const PLURAL: Record<Kind, string> = { artist: 'artists', album: 'albums', track: 'tracks' };
const SAME = 'The same list as under `/me` (one store of personal data, whichever way an entry was added); each row is the canonical doc, its external refs name the scrobbler ids.';

const favoritesRoute = (kind: Kind) =>
  defineRoute({
    method: 'get',
    path: `/scrobbler/me/favorites/${PLURAL[kind]}`,
    tag: 'scrobbler',
    summary: `The caller's favorite ${PLURAL[kind]}, newest first`,
    description: SAME,
    access: 'user',
    response: z.array(FavoriteRow),
    handler: ({ ctx, user }) => listFavorites(ctx.db, usernameKey(user.username), kind),
  });

const albumsRoute = (list: 'wishlist' | 'owned') =>
  defineRoute({
    method: 'get',
    path: `/scrobbler/me/albums/${list}`,
    tag: 'scrobbler',
    summary: list === 'owned' ? "The caller's owned albums, newest first" : "The caller's wishlist, newest first",
    description: `${SAME} Owned albums moved from the wishlist keep \`wishlisted_at\`.`,
    access: 'user',
    response: z.array(AlbumCollectionRow),
    handler: ({ ctx, user }) => listAlbums(ctx.db, usernameKey(user.username), { status: list === 'owned' ? 'owned' : 'wishlisted' }),
  });

export const personalByNameQueryRoutes = [favoritesRoute('artist'), favoritesRoute('album'), favoritesRoute('track'), albumsRoute('wishlist'), albumsRoute('owned')];
