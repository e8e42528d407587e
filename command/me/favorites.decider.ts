import type { Kind } from '../../shared/events/canonical.events.ts';
import type { FavoriteEvent } from '../../shared/events/me.events.ts';
import { assertNever } from '../../shared/never.ts';

/** One user's favorite of one canonical entity, stream `favorite-<user>.<kind>.<id>`. */
export interface FavoriteState {
  favorited: boolean;
  since: string | null;
}

export const initialState = (): FavoriteState => ({ favorited: false, since: null });

export function evolve(state: FavoriteState, event: FavoriteEvent): FavoriteState {
  switch (event.type) {
    case 'FavoriteAdded':
      return { favorited: true, since: event.data.at };
    case 'FavoriteRemoved':
      return { favorited: false, since: null };
    default:
      return assertNever(event);
  }
}

interface Meta {
  username: string;
  kind: Kind;
  /** The id the stream is recorded under. */
  canonicalId: string;
  /** When the caller's account was registered: what an earlier account of that name did is not theirs. */
  userSince: string;
  now: string;
}

export type FavoriteCommand = { type: 'AddFavorite'; meta: Meta } | { type: 'RemoveFavorite'; meta: Meta };

/** A favorite of this account: added since it was registered (a deleted namesake's do not count). */
export const stands = (state: FavoriteState, userSince: string): boolean => state.favorited && state.since! >= userSince;

/** Adding twice and removing what is not there both decide nothing: the client may repeat itself. */
export function decide(state: FavoriteState, command: FavoriteCommand): FavoriteEvent[] {
  const { username, kind, canonicalId: canonical_id, userSince, now: at } = command.meta;
  const favorited = stands(state, userSince);
  switch (command.type) {
    case 'AddFavorite':
      return favorited ? [] : [{ type: 'FavoriteAdded', data: { username, kind, canonical_id, at } }];
    case 'RemoveFavorite':
      return favorited ? [{ type: 'FavoriteRemoved', data: { username, kind, canonical_id, at } }] : [];
    default:
      return assertNever(command);
  }
}
