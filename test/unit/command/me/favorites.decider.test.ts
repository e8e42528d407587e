import { expect } from 'chai';
import * as favorites from '../../../../command/me/favorites.decider.ts';
import type { FavoriteEvent } from '../../../../shared/events/me.events.ts';

const at = '2026-01-01T00:00:00.000Z';
const registered = '2025-06-01T00:00:00.000Z';
const meta = { username: 'alice', kind: 'track' as const, canonicalId: 'T', userSince: registered, now: at };
const added: FavoriteEvent = { type: 'FavoriteAdded', data: { username: 'alice', kind: 'track', canonical_id: 'T', at } };
const removed: FavoriteEvent = { type: 'FavoriteRemoved', data: { username: 'alice', kind: 'track', canonical_id: 'T', at } };

function given(...events: FavoriteEvent[]) {
  const state = events.reduce(favorites.evolve, favorites.initialState());
  return {
    when: (type: favorites.FavoriteCommand['type'], userSince = registered) => ({
      then: (expected: FavoriteEvent[]) => expect(favorites.decide(state, { type, meta: { ...meta, userSince } })).to.deep.equal(expected),
    }),
  };
}

describe('favorites decider', () => {
  it('adds a favorite once: adding it again decides nothing', () => {
    given().when('AddFavorite').then([added]);
    given(added).when('AddFavorite').then([]);
  });

  it('removes only a favorite that is there', () => {
    given(added).when('RemoveFavorite').then([removed]);
    given().when('RemoveFavorite').then([]);
    given(added, removed).when('RemoveFavorite').then([]);
  });

  it('adds again after a removal', () => {
    given(added, removed).when('AddFavorite').then([added]);
  });

  it('ignores a favorite recorded before the account was registered (a deleted namesake\'s)', () => {
    const later = '2026-03-01T00:00:00.000Z';
    given(added).when('RemoveFavorite', later).then([]);
    given(added).when('AddFavorite', later).then([added]);
  });

  it('remembers since when the favorite stands', () => {
    expect(favorites.evolve(favorites.initialState(), added)).to.deep.equal({ favorited: true, since: at });
  });
});
