import { expect } from 'chai';
import * as radio from '../../../../command/radio/radio-session.decider.ts';
import type { RadioSessionCommand } from '../../../../command/radio/radio-session.decider.ts';
import type { PickFacts } from '../../../../command/radio/pick-next.ts';
import type { WithoutMeta } from '../../../../shared/commands.ts';
import type { PoolEntry, RadioSessionEvent } from '../../../../shared/events/radio.events.ts';

const at = '2026-01-01T00:00:00.000Z';
const base = { session_id: 'S', username: 'alice', at };
const entry = (track_id: string, artist_id: string, match: number): PoolEntry => ({
  track_id, artist_id, artist_name: artist_id, same_artist: null, same_album: null, similar_artist: { of: 'Seed', match }, similar_track: null, shared: [],
});
const pool = [entry('t1', 'a', 0.9), entry('t2', 'b', 0.5)];
const facts: PickFacts = { feedback: { tracks: new Map(), artists: new Map() }, lastPlayed: new Map(), now: new Date(at) };
const started: RadioSessionEvent = { type: 'RadioSessionStarted', data: { ...base, seed_kind: 'artist', seed_id: 'A', seed_label: 'Seed', pool_size: 2, pool } };
const picked = (position: number, track: string, artist: string): RadioSessionEvent => ({ type: 'RadioTrackPicked', data: { ...base, position, canonical_track_id: track, artist_id: artist, score: 0, reason: '' } });
const ended: RadioSessionEvent = { type: 'RadioSessionEnded', data: { ...base, cause: 'ended' } };

function given(...events: RadioSessionEvent[]) {
  const state = events.reduce(radio.evolve, radio.initialState());
  return {
    when: (command: WithoutMeta<RadioSessionCommand>, username = 'alice') => {
      const run = () => radio.decide(state, { ...command, meta: { sessionId: 'S', username, userSince: '2025-01-01T00:00:00.000Z', now: at } } as RadioSessionCommand);
      return {
        then: (check: (events: RadioSessionEvent[]) => void) => check(run()),
        thenThrows: (error: new (...a: any[]) => Error) => expect(run).to.throw(error),
      };
    },
  };
}

describe('radio session decider', () => {
  it('starts with the pool, the discoveries and the first pick', () => {
    const wanted = [{ discovery_id: 'D', artist_name: 'X', title: 'Y', similarity: 0.4, status: 'not_in_library' as const, canonical_track_id: null }];
    given().when({ type: 'StartSession', seed: { kind: 'artist', id: 'A', label: 'Seed' }, poolSize: 2, pool, wanted, facts }).then((events) => {
      expect(events.map((e) => e.type)).to.deep.equal(['RadioSessionStarted', 'RadioDiscoveriesWanted', 'RadioTrackPicked']);
      expect(events[2]!.data).to.include({ position: 1, canonical_track_id: 't1', reason: 'similar to Seed (scrobbler 0.90)' });
    });
  });

  it('advancing logs the outcome of the current track, then picks the next', () => {
    given(started, picked(1, 't1', 'a')).when({ type: 'Advance', outcome: 'disliked', facts }).then((events) => {
      expect(events[0]).to.deep.equal({ type: 'RadioOutcomeLogged', data: { ...base, position: 1, canonical_track_id: 't1', artist_id: 'a', outcome: 'disliked' } });
      expect(events[1]!.data).to.include({ position: 2, canonical_track_id: 't2' });
    });
  });

  it('an ended session does not advance (409), and is not anyone else\'s (404)', () => {
    given(started, picked(1, 't1', 'a'), ended).when({ type: 'Advance', outcome: 'played', facts }).thenThrows(radio.SessionNotActive);
    given(started).when({ type: 'EndSession', cause: 'ended' }, 'bob').thenThrows(radio.RadioSessionNotFound);
    given().when({ type: 'ResumeSession' }).thenThrows(radio.RadioSessionNotFound);
  });

  it('replacing a session not started yet (its start races) or not the caller\'s decides nothing', () => {
    given().when({ type: 'EndSession', cause: 'replaced' }).then((events) => expect(events).to.deep.equal([]));
    given(started).when({ type: 'EndSession', cause: 'replaced' }, 'bob').then((events) => expect(events).to.deep.equal([]));
    given(started).when({ type: 'EndSession', cause: 'replaced' }).then((events) => expect(events).to.deep.equal([{ type: 'RadioSessionEnded', data: { ...base, cause: 'replaced' } }]));
  });

  it('ending and resuming are idempotent', () => {
    given(started, ended).when({ type: 'EndSession', cause: 'ended' }).then((events) => expect(events).to.deep.equal([]));
    given(started).when({ type: 'ResumeSession' }).then((events) => expect(events).to.deep.equal([]));
    given(started, ended).when({ type: 'ResumeSession' }).then((events) => expect(events).to.deep.equal([{ type: 'RadioSessionResumed', data: base }]));
  });

  it('records a thumb with the artist it weighs', () => {
    given(started, ended).when({ type: 'GiveFeedback', trackId: 't2', artistId: 'b', signal: 'up' }).then((events) =>
      expect(events).to.deep.equal([{ type: 'RadioFeedbackGiven', data: { ...base, canonical_track_id: 't2', artist_id: 'b', signal: 'up' } }]),
    );
  });
});
