import { expect } from 'chai';
import * as collection from '../../../../command/me/collection.decider.ts';
import type { CollectionEvent } from '../../../../shared/events/me.events.ts';

const wishedAt = '2026-01-01T00:00:00.000Z';
const now = '2026-02-01T00:00:00.000Z';
const base = { username: 'alice', canonical_id: 'A' };
const wished: CollectionEvent = { type: 'AlbumAddedToWishlist', data: { ...base, at: wishedAt } };
const ownedDirectly: CollectionEvent = { type: 'AlbumAddedToOwned', data: { ...base, wishlisted_at: null, at: now } };
const ownedFromWish: CollectionEvent = { type: 'AlbumAddedToOwned', data: { ...base, wishlisted_at: wishedAt, at: now } };

function given(...events: CollectionEvent[]) {
  const state = events.reduce(collection.evolve, collection.initialState());
  return {
    when: (type: collection.CollectionCommand['type'], userSince = '2025-06-01T00:00:00.000Z') => ({
      then: (expected: CollectionEvent[]) => expect(collection.decide(state, { type, meta: { username: 'alice', canonicalId: 'A', userSince, now } })).to.deep.equal(expected),
    }),
  };
}

describe('album collection decider', () => {
  it('wishes for an album once; an owned album is not wished for again', () => {
    given().when('AddToWishlist').then([{ type: 'AlbumAddedToWishlist', data: { ...base, at: now } }]);
    given(wished).when('AddToWishlist').then([]);
    given(ownedDirectly).when('AddToWishlist').then([]);
  });

  it('owning a wished-for album moves it and keeps when it was wished for', () => {
    given(wished).when('AddToOwned').then([ownedFromWish]);
  });

  it('owns an album not wished for with no wish time, once', () => {
    given().when('AddToOwned').then([ownedDirectly]);
    given(ownedFromWish).when('AddToOwned').then([]);
  });

  it('removes from the wishlist only what is wished for, and from the owned list only what is owned', () => {
    given(wished).when('RemoveFromWishlist').then([{ type: 'AlbumRemovedFromWishlist', data: { ...base, at: now } }]);
    given(ownedFromWish).when('RemoveFromWishlist').then([]);
    given(ownedFromWish).when('RemoveFromOwned').then([{ type: 'AlbumRemovedFromOwned', data: { ...base, at: now } }]);
    given(wished).when('RemoveFromOwned').then([]);
    given().when('RemoveFromOwned').then([]);
  });

  it('ignores what a deleted namesake wished for or owned before the account was registered', () => {
    const later = '2026-01-15T00:00:00.000Z';
    given(wished).when('AddToOwned', later).then([ownedDirectly]);
    given(wished).when('RemoveFromWishlist', later).then([]);
    given(ownedFromWish).when('RemoveFromOwned', later).then([]);
    given(ownedFromWish).when('AddToWishlist', later).then([{ type: 'AlbumAddedToWishlist', data: { ...base, at: now } }]);
  });

  it('forgets the wish time once the album leaves the collection', () => {
    const removed: CollectionEvent = { type: 'AlbumRemovedFromOwned', data: { ...base, at: now } };
    given(wished, ownedFromWish, removed).when('AddToOwned').then([ownedDirectly]);
  });
});
