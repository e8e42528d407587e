import { z } from 'zod';
import { type Route, defineRoute } from '../../infra/http/define-route.ts';
import { AlbumCollectionRow, listAlbums } from '../../projectors/me/album-collection.reads.ts';
import { FavoriteRow, listFavorites } from '../../projectors/me/favorites.reads.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { usernameKey } from '../../shared/usernames.ts';

const PLURAL: Record<Kind, string> = { artist: 'artists', album: 'albums', track: 'tracks' };

/** Where one family of personal-list reads is mounted (`/me`, `/scrobbler/me`): the lists are the same. */
export interface ListMount {
  prefix: string;
  tag: string;
  /** What the descriptions say first. */
  note: string;
}

/** The caller's favorites of each kind, wishlist and owned albums, newest first. */
export function personalListQueryRoutes(mount: ListMount): Route[] {
  const favoritesRoute = (kind: Kind) =>
    defineRoute({
      method: 'get',
      path: `${mount.prefix}/favorites/${PLURAL[kind]}`,
      tag: mount.tag,
      summary: `The caller's favorite ${PLURAL[kind]}, newest first`,
      description: mount.note,
      access: 'user',
      response: z.array(FavoriteRow),
      handler: ({ ctx, user }) => listFavorites(ctx.db, usernameKey(user.username), kind),
    });
  const albumsRoute = (list: 'wishlist' | 'owned') =>
    defineRoute({
      method: 'get',
      path: `${mount.prefix}/albums/${list}`,
      tag: mount.tag,
      summary: list === 'owned' ? "The caller's owned albums, newest first" : "The caller's wishlist, newest first",
      description: `${mount.note} Owned albums moved from the wishlist keep \`wishlisted_at\`.`,
      access: 'user',
      response: z.array(AlbumCollectionRow),
      handler: ({ ctx, user }) => listAlbums(ctx.db, usernameKey(user.username), { status: list === 'owned' ? 'owned' : 'wishlisted' }),
    });
  return [favoritesRoute('artist'), favoritesRoute('album'), favoritesRoute('track'), albumsRoute('wishlist'), albumsRoute('owned')];
}
