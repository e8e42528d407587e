import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { AppContext } from '../../infra/context.ts';
import type { Database } from '../../infra/db/database.ts';
import type { SessionUser } from '../../shared/users.ts';
import { type AlbumCollectionRow, type CollectionStatus, listAlbums } from '../../projectors/me/album-collection.reads.ts';
import { type FavoriteRow, listFavorites } from '../../projectors/me/favorites.reads.ts';
import { findDoc } from '../../projectors/canonical/canonical-docs.reads.ts';
import { NotFound } from '../../shared/errors.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import { usernameKey } from '../../shared/usernames.ts';
import type { Changed } from './me-commands.ts';

/**
 * What the personal-data writes answer, read once the read models include the write (the route's
 * read-your-writes), for every way of naming the entity: one store of favorites and albums.
 */

/** What a removal answers; `removed: false` when the caller had nothing there. */
export const Removed = z.object({ kind: z.string(), canonical_id: z.string(), removed: z.boolean() });
export type Removed = z.infer<typeof Removed>;

export const removedAnswer = (kind: Kind, done: Changed): Removed => ({ kind, canonical_id: done.canonicalId, removed: done.changed });

/** The answer when the read model has not caught up within the bounded wait: the write is durable all the same. */
async function docOf(db: Kysely<Database>, kind: Kind, id: string) {
  const doc = await findDoc(db, kind, id);
  if (!doc) throw new NotFound(`${kind} not found`);
  return doc;
}

export async function favoriteAnswer(ctx: AppContext, user: SessionUser, kind: Kind, canonicalId: string): Promise<FavoriteRow> {
  const row = (await listFavorites(ctx.db, usernameKey(user.username), kind, canonicalId))[0];
  return row ?? { ...(await docOf(ctx.db, kind, canonicalId)), canonical_id: canonicalId, added_at: new Date().toISOString() };
}

export async function albumAnswer(ctx: AppContext, user: SessionUser, status: CollectionStatus, canonicalId: string): Promise<AlbumCollectionRow> {
  const row = (await listAlbums(ctx.db, usernameKey(user.username), { only: canonicalId }))[0];
  if (row) return row;
  const at = new Date().toISOString();
  return { ...(await docOf(ctx.db, 'album', canonicalId)), canonical_id: canonicalId, status, wishlisted_at: status === 'owned' ? null : at, owned_at: status === 'owned' ? at : null, added_at: at };
}
