import { z } from 'zod';
import { Kind } from './canonical.events.ts';

/**
 * Personal data. Each favorite and each album of the collection is a stream of its own,
 * `favorite-<user>.<kind>.<id>` and `albumcollection-<user>.<id>`, so that adding one never reads
 * the whole list; each note is a stream `comment-<id>` that keeps its edits and its deletion.
 * `canonical_id` is the id the fact was recorded under: readers follow its merge chain.
 */
const personal = { username: z.string(), canonical_id: z.string(), at: z.string() };

/** The media server's favorites playlist follows the single-track ones: keep names and fields. */
export const FavoriteAdded = z.object({ ...personal, kind: Kind });
export const FavoriteRemoved = z.object({ ...personal, kind: Kind });

export const AlbumAddedToWishlist = z.object({ ...personal });
export const AlbumRemovedFromWishlist = z.object({ ...personal });
/** `wishlisted_at` is kept as history when the album moves from the wishlist. */
export const AlbumAddedToOwned = z.object({ ...personal, wishlisted_at: z.string().nullable() });
export const AlbumRemovedFromOwned = z.object({ ...personal });

export const CommentPosted = z.object({ comment_id: z.string(), ...personal, kind: Kind, body: z.string() });
export const CommentEdited = z.object({ comment_id: z.string(), username: z.string(), body: z.string(), at: z.string() });
export const CommentDeleted = z.object({ comment_id: z.string(), username: z.string(), at: z.string() });

export const meEventSchemas = {
  FavoriteAdded,
  FavoriteRemoved,
  AlbumAddedToWishlist,
  AlbumRemovedFromWishlist,
  AlbumAddedToOwned,
  AlbumRemovedFromOwned,
  CommentPosted,
  CommentEdited,
  CommentDeleted,
} as const;

type Infer<T extends z.ZodType> = z.infer<T>;
export type FavoriteEvent = { type: 'FavoriteAdded'; data: Infer<typeof FavoriteAdded> } | { type: 'FavoriteRemoved'; data: Infer<typeof FavoriteRemoved> };
export type CollectionEvent =
  | { type: 'AlbumAddedToWishlist'; data: Infer<typeof AlbumAddedToWishlist> }
  | { type: 'AlbumRemovedFromWishlist'; data: Infer<typeof AlbumRemovedFromWishlist> }
  | { type: 'AlbumAddedToOwned'; data: Infer<typeof AlbumAddedToOwned> }
  | { type: 'AlbumRemovedFromOwned'; data: Infer<typeof AlbumRemovedFromOwned> };
export type CommentEvent =
  | { type: 'CommentPosted'; data: Infer<typeof CommentPosted> }
  | { type: 'CommentEdited'; data: Infer<typeof CommentEdited> }
  | { type: 'CommentDeleted'; data: Infer<typeof CommentDeleted> };
export type MeEvent = FavoriteEvent | CollectionEvent | CommentEvent;
