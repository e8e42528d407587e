import type { AppContext } from '../../infra/context.ts';
import { aggregate } from '../../infra/eventstore/aggregate.ts';
import { handleCommand } from '../../infra/eventstore/command-handler.ts';
import type { DomainEvent } from '../../shared/events/index.ts';
import type { SessionUser } from '../../shared/users.ts';
import { idsEndingAt } from '../../projectors/canonical/merge-aliases.reads.ts';
import type { WithoutMeta } from '../../shared/commands.ts';
import type { Kind } from '../../shared/events/canonical.events.ts';
import type { CollectionEvent, FavoriteEvent } from '../../shared/events/me.events.ts';
import { albumCollectionStream, favoriteStream } from '../../shared/streams.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { canonicalCommands } from '../canonical/canonical-commands.ts';
import { callerSince } from './account-since.ts';
import * as collection from './collection.decider.ts';
import type { CollectionCommand, CollectionState } from './collection.decider.ts';
import * as favorites from './favorites.decider.ts';
import type { FavoriteCommand, FavoriteState } from './favorites.decider.ts';

export interface Changed {
  /** The id the request's id stands for now: the end of its merge chain. */
  canonicalId: string;
  changed: boolean;
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
  const userSince = () => (registered ??= callerSince(ctx, user));

  async function onFavorite(kind: Kind, id: string, command: WithoutMeta<FavoriteCommand>) {
    const meta = { username: user.username, kind, canonicalId: id, userSince: await userSince(), now: now() };
    return handleCommand<FavoriteState, FavoriteCommand, FavoriteEvent>(ctx.store, favoriteStream(userKey, kind, id), favorites, { ...command, meta }, metadata);
  }

  async function onAlbum(id: string, command: WithoutMeta<CollectionCommand>) {
    const meta = { username: user.username, canonicalId: id, userSince: await userSince(), now: now() };
    return handleCommand<CollectionState, CollectionCommand, CollectionEvent>(ctx.store, albumCollectionStream(userKey, id), collection, { ...command, meta }, metadata);
  }

  async function fold<S, E extends DomainEvent>(stream: string, decider: { initialState(): S; evolve(s: S, e: E): S }): Promise<S> {
    return (await aggregate(ctx.store, stream, decider.evolve, decider.initialState())).state;
  }

  /** Runs the command on each id in turn (the route's read-your-writes covers every append). */
  async function onEach(ids: string[], run: (id: string) => Promise<{ result?: unknown }>): Promise<Omit<Changed, 'canonicalId'>> {
    let changed = false;
    for (const id of ids) if ((await run(id)).result) changed = true;
    return changed ? { changed } : unchanged();
  }

  /**
   * Nothing appended: the state that made it a no-op may be a concurrent request's write, not yet
   * in the read model the answer reads, so wait for the head of the log.
   */
  async function unchanged(): Promise<Omit<Changed, 'canonicalId'>> {
    await ctx.readModels.catchUp(await ctx.store.headPosition());
    return { changed: false };
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
