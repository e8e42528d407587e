import type { AppContext } from '../../infra/context.ts';
import { handleCommand } from '../../infra/eventstore/command-handler.ts';
import type { Position } from '../../infra/eventstore/event-store.ts';
import type { SessionUser } from '../../infra/http/auth.ts';
import { idsEndingAt } from '../../query/me/merge-aliases.ts';
import type { WithoutMeta } from '../../shared/commands.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import type { CollectionEvent, FavoriteEvent } from '../../shared/events/me.events.ts';
import { albumCollectionStream, favoriteStream } from '../../shared/streams.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { canonicalCommands } from '../canonical/canonical-commands.ts';
import { accountSince } from './account-since.ts';
import * as collection from './collection.decider.ts';
import type { CollectionCommand, CollectionState } from './collection.decider.ts';
import * as favorites from './favorites.decider.ts';
import type { FavoriteCommand, FavoriteState } from './favorites.decider.ts';

export interface Changed {
  /** The id the request's id stands for now: the end of its merge chain. */
  canonicalId: string;
  changed: boolean;
  /**
   * What the answer must wait for: the append, or when nothing changed the head of the log (the
   * state that made it a no-op may be a concurrent request's write, not yet in the read model).
   */
  position: Position;
}

/**
 * The caller's favorites and albums. A favorite is recorded under the id it had when added; after
 * a merge several of the caller's streams may stand for one entity, so a change looks at every id
 * whose chain ends at the requested one.
 */
export function meCommands(ctx: AppContext, user: SessionUser) {
  const userKey = usernameKey(user.username);
  const now = () => new Date().toISOString();
  const metadata = { actor: user.username };

  /** The chain end (from the log, 404 when unknown) and every id merged into it. */
  async function chain(kind: Kind, id: string): Promise<{ end: string; ids: string[] }> {
    const end = await canonicalCommands(ctx, user.username).finalId(kind, id);
    return { end, ids: (await idsEndingAt(ctx.db, kind, [end])).get(end)! };
  }

  let registered: Promise<string> | undefined;
  const userSince = () => (registered ??= accountSince(ctx, user));

  async function onFavorite(kind: Kind, id: string, command: WithoutMeta<FavoriteCommand>) {
    const meta = { username: user.username, kind, canonicalId: id, userSince: await userSince(), now: now() };
    return handleCommand<FavoriteState, FavoriteCommand, FavoriteEvent>(ctx.store, favoriteStream(userKey, kind, id), favorites, { ...command, meta }, metadata);
  }

  async function onAlbum(id: string, command: WithoutMeta<CollectionCommand>) {
    const meta = { username: user.username, canonicalId: id, userSince: await userSince(), now: now() };
    return handleCommand<CollectionState, CollectionCommand, CollectionEvent>(ctx.store, albumCollectionStream(userKey, id), collection, { ...command, meta }, metadata);
  }

  async function fold<S, E>(stream: string, decider: { initialState(): S; evolve(s: S, e: E): S }): Promise<S> {
    const events = await ctx.store.readStream(stream);
    return events.reduce((s, e) => decider.evolve(s, { type: e.type, data: e.data } as E), decider.initialState());
  }

  /** Runs the command on each id in turn; the last append's position covers them all. */
  async function onEach(ids: string[], run: (id: string) => Promise<{ result?: { position: Position } }>): Promise<Omit<Changed, 'canonicalId'>> {
    let position: Position | undefined;
    for (const id of ids) position = (await run(id)).result?.position ?? position;
    return position ? { changed: true, position } : unchanged();
  }

  async function unchanged(): Promise<Omit<Changed, 'canonicalId'>> {
    return { changed: false, position: await ctx.store.headPosition() };
  }

  return {
    async addFavorite(kind: Kind, id: string): Promise<Changed> {
      const { end, ids } = await chain(kind, id);
      const since = await userSince();
      const states = await Promise.all(ids.map((i) => fold(favoriteStream(userKey, kind, i), favorites)));
      if (states.some((s) => favorites.stands(s, since))) return { canonicalId: end, ...(await unchanged()) };
      return { canonicalId: end, ...(await onEach([end], (i) => onFavorite(kind, i, { type: 'AddFavorite' }))) };
    },

    async removeFavorite(kind: Kind, id: string): Promise<Changed> {
      const { end, ids } = await chain(kind, id);
      return { canonicalId: end, ...(await onEach(ids, (i) => onFavorite(kind, i, { type: 'RemoveFavorite' }))) };
    },

    async addToWishlist(id: string): Promise<Changed> {
      const { end, ids } = await chain('album', id);
      const since = await userSince();
      const states = (await Promise.all(ids.map((i) => fold(albumCollectionStream(userKey, i), collection)))).map((s) => collection.standing(s, since));
      if (states.some((s) => s.status !== 'none')) return { canonicalId: end, ...(await unchanged()) };
      return { canonicalId: end, ...(await onEach([end], (i) => onAlbum(i, { type: 'AddToWishlist' }))) };
    },

    /** Moves every wished-for alias (keeping when it was wished for), or records a new owned album. */
    async addToOwned(id: string): Promise<Changed> {
      const { end, ids } = await chain('album', id);
      const since = await userSince();
      const states = (await Promise.all(ids.map((i) => fold(albumCollectionStream(userKey, i), collection)))).map((s) => collection.standing(s, since));
      if (states.some((s) => s.status === 'owned')) return { canonicalId: end, ...(await unchanged()) };
      const wished = ids.filter((_, n) => states[n]!.status === 'wishlisted');
      return { canonicalId: end, ...(await onEach(wished.length > 0 ? wished : [end], (i) => onAlbum(i, { type: 'AddToOwned' }))) };
    },

    async removeFromWishlist(id: string): Promise<Changed> {
      const { end, ids } = await chain('album', id);
      return { canonicalId: end, ...(await onEach(ids, (i) => onAlbum(i, { type: 'RemoveFromWishlist' }))) };
    },

    async removeFromOwned(id: string): Promise<Changed> {
      const { end, ids } = await chain('album', id);
      return { canonicalId: end, ...(await onEach(ids, (i) => onAlbum(i, { type: 'RemoveFromOwned' }))) };
    },
  };
}
