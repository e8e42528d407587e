import type { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import { type Route, defineRoute } from '../../infra/http/define-route.ts';
import { AlbumCollectionRow, type CollectionStatus } from '../../projectors/me/album-collection.reads.ts';
import { FavoriteRow } from '../../projectors/me/favorites.reads.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import type { SessionUser } from '../../shared/users.ts';
import { Removed, albumAnswer, favoriteAnswer, removedAnswer } from './me-answers.ts';
import { meCommands } from './me-commands.ts';

const PLURAL: Record<Kind, string> = { artist: 'artists', album: 'albums', track: 'tracks' };
export type List = 'wishlist' | 'owned';
const STATUS: Record<List, CollectionStatus> = { wishlist: 'wishlisted', owned: 'owned' };

/**
 * How one family of personal-list write routes names its entities: `/me/...` by canonical or
 * catalog id, `/scrobbler/me/...` by scrobbler name. The lists are the same; only the naming differs.
 */
export interface Naming<B extends z.ZodType, P extends z.ZodObject<z.ZodRawShape>> {
  prefix: string;
  tag: string;
  /** Appended to the add routes' summaries (`by its scrobbler name`). */
  by: string;
  addBody(kind: Kind): B;
  addDescription(kind: Kind, list?: List): string;
  addErrors: Record<number, string>;
  /** The canonical id an add names. */
  addTarget(ctx: AppContext, user: SessionUser, kind: Kind, body: z.output<B>): Promise<string>;
  /** The path parameter of a removal, named `param`. */
  param: string;
  removeParams: P;
  removeDescription(kind: Kind, list?: List): string;
  /** The id a removal names (any id of its merge chain). */
  removeTarget(ctx: AppContext, kind: Kind, params: z.output<P>): Promise<string>;
}

function favoriteRoutes<B extends z.ZodType, P extends z.ZodObject<z.ZodRawShape>>(naming: Naming<B, P>, kind: Kind): Route[] {
  const path = `${naming.prefix}/favorites/${PLURAL[kind]}`;
  return [
    defineRoute({
      method: 'post',
      path,
      tag: naming.tag,
      summary: `Add a ${kind} to the caller's favorites${naming.by}`,
      description: naming.addDescription(kind),
      access: 'user',
      body: naming.addBody(kind),
      response: FavoriteRow,
      errors: naming.addErrors,
      handler: async ({ ctx, body, user }) => meCommands(ctx, user).addFavorite(kind, await naming.addTarget(ctx, user, kind, body as z.output<B>)),
      answer: ({ ctx, user }, done) => favoriteAnswer(ctx, user, kind, done.canonicalId),
    }),
    defineRoute({
      method: 'delete',
      path: `${path}/{${naming.param}}`,
      tag: naming.tag,
      summary: `Remove a ${kind} from the caller's favorites`,
      description: naming.removeDescription(kind),
      access: 'user',
      params: naming.removeParams,
      response: Removed,
      errors: { 404: `Unknown ${kind}` },
      handler: async ({ ctx, params, user }) =>
        removedAnswer(kind, await meCommands(ctx, user).removeFavorite(kind, await naming.removeTarget(ctx, kind, params as z.output<P>))),
    }),
  ];
}

function albumListRoutes<B extends z.ZodType, P extends z.ZodObject<z.ZodRawShape>>(naming: Naming<B, P>, list: List): Route[] {
  const path = `${naming.prefix}/albums/${list}`;
  const status = STATUS[list];
  return [
    defineRoute({
      method: 'post',
      path,
      tag: naming.tag,
      summary: list === 'owned' ? `Mark an album as owned${naming.by}; from the wishlist it moves, keeping \`wishlisted_at\`` : `Add an album to the wishlist${naming.by}`,
      description: naming.addDescription('album', list),
      access: 'user',
      body: naming.addBody('album'),
      response: AlbumCollectionRow,
      errors: naming.addErrors,
      handler: async ({ ctx, body, user }) => {
        const id = await naming.addTarget(ctx, user, 'album', body as z.output<B>);
        const commands = meCommands(ctx, user);
        return list === 'owned' ? commands.addToOwned(id) : commands.addToWishlist(id);
      },
      answer: ({ ctx, user }, done) => albumAnswer(ctx, user, status, done.canonicalId),
    }),
    defineRoute({
      method: 'delete',
      path: `${path}/{${naming.param}}`,
      tag: naming.tag,
      summary: `Remove an album from the ${list === 'owned' ? 'owned list' : 'wishlist'}`,
      description: naming.removeDescription('album', list),
      access: 'user',
      params: naming.removeParams,
      response: Removed,
      errors: { 404: 'Unknown album' },
      handler: async ({ ctx, params, user }) => {
        const id = await naming.removeTarget(ctx, 'album', params as z.output<P>);
        const commands = meCommands(ctx, user);
        return removedAnswer('album', list === 'owned' ? await commands.removeFromOwned(id) : await commands.removeFromWishlist(id));
      },
    }),
  ];
}

/** Every personal-list write route of one naming: favorites of each kind, the wishlist and the owned albums. */
export function personalListWriteRoutes<B extends z.ZodType, P extends z.ZodObject<z.ZodRawShape>>(naming: Naming<B, P>): Route[] {
  return [
    ...favoriteRoutes(naming, 'artist'),
    ...favoriteRoutes(naming, 'album'),
    ...favoriteRoutes(naming, 'track'),
    ...albumListRoutes(naming, 'wishlist'),
    ...albumListRoutes(naming, 'owned'),
  ];
}
