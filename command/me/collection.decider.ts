import type { CollectionEvent } from '../../shared/events/me.events.ts';
import { assertNever } from '../../shared/never.ts';

/** One user's relation to one album, stream `albumcollection-<user>.<id>`: wished for, owned, or neither. */
export interface CollectionState {
  status: 'none' | 'wishlisted' | 'owned';
  wishlistedAt: string | null;
  /** When the album entered the collection. */
  since: string | null;
}

export const initialState = (): CollectionState => ({ status: 'none', wishlistedAt: null, since: null });

export function evolve(state: CollectionState, event: CollectionEvent): CollectionState {
  switch (event.type) {
    case 'AlbumAddedToWishlist':
      return { status: 'wishlisted', wishlistedAt: event.data.at, since: event.data.at };
    case 'AlbumAddedToOwned':
      return { status: 'owned', wishlistedAt: event.data.wishlisted_at, since: event.data.wishlisted_at ?? event.data.at };
    case 'AlbumRemovedFromWishlist':
    case 'AlbumRemovedFromOwned':
      return initialState();
    default:
      return assertNever(event);
  }
}

interface Meta {
  username: string;
  /** The id the stream is recorded under. */
  canonicalId: string;
  /** When the caller's account was registered: what an earlier account of that name did is not theirs. */
  userSince: string;
  now: string;
}

export type CollectionCommand =
  | { type: 'AddToWishlist'; meta: Meta }
  | { type: 'RemoveFromWishlist'; meta: Meta }
  | { type: 'AddToOwned'; meta: Meta }
  | { type: 'RemoveFromOwned'; meta: Meta };

/** The state as this account sees it: a deleted namesake's albums are not in its collection. */
export const standing = (state: CollectionState, userSince: string): CollectionState =>
  state.status !== 'none' && state.since! >= userSince ? state : initialState();

/**
 * An owned album is not wished for again; owning a wished-for album moves it and keeps when it
 * was wished for. Repeats and removals of what is not there decide nothing.
 */
export function decide(current: CollectionState, command: CollectionCommand): CollectionEvent[] {
  const { username, canonicalId: canonical_id, userSince, now: at } = command.meta;
  const state = standing(current, userSince);
  switch (command.type) {
    case 'AddToWishlist':
      return state.status === 'none' ? [{ type: 'AlbumAddedToWishlist', data: { username, canonical_id, at } }] : [];
    case 'AddToOwned':
      return state.status === 'owned' ? [] : [{ type: 'AlbumAddedToOwned', data: { username, canonical_id, wishlisted_at: state.wishlistedAt, at } }];
    case 'RemoveFromWishlist':
      return state.status === 'wishlisted' ? [{ type: 'AlbumRemovedFromWishlist', data: { username, canonical_id, at } }] : [];
    case 'RemoveFromOwned':
      return state.status === 'owned' ? [{ type: 'AlbumRemovedFromOwned', data: { username, canonical_id, at } }] : [];
    default:
      return assertNever(command);
  }
}
