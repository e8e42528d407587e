import { expect } from 'chai';
import { type PickFacts, type SessionSoFar, type Tally, WEIGHTS, pickNext, scoreCandidate } from '../../../../command/radio/pick-next.ts';
import type { PoolEntry } from '../../../../shared/events/radio.events.ts';

const now = new Date('2026-06-01T12:00:00Z');
const DAY = 86_400;
const uts = (daysAgo: number) => Math.floor(now.getTime() / 1000) - daysAgo * DAY - 60;

const entry = (track_id: string, artist_id: string, ties: Partial<PoolEntry> = {}): PoolEntry => ({
  track_id, artist_id, artist_name: artist_id.toUpperCase(), same_artist: null, same_album: null, similar_artist: null, similar_track: null, shared: [], ...ties,
});
const noFeedback = () => ({ tracks: new Map<string, Tally>(), artists: new Map<string, Tally>() });
const facts = (over: Partial<PickFacts> = {}): PickFacts => ({ feedback: noFeedback(), lastPlayed: new Map(), now, ...over });
const session = (pool: PoolEntry[], over: Partial<SessionSoFar> = {}): SessionSoFar => ({ sessionId: 'S', seedKind: 'artist', pool, picks: [], thumbs: [], ...over });

const pool = [
  entry('t1', 'a', { same_artist: 'A', shared: ['dream pop'] }),
  entry('t2', 'a', { same_artist: 'A' }),
  entry('t3', 'b', { similar_artist: { of: 'A', match: 0.82 }, shared: ['dream pop'] }),
  entry('t4', 'c', { similar_track: { of: 'Seed Song', match: 0.9 } }),
  entry('t5', 'd', { shared: ['dream pop', 'shoegaze'] }),
];

describe('radio pick-next (pure scoring)', () => {
  it('given seed ties only, then the strongest tie wins and the reason names its signals', () => {
    const pick = pickNext(session(pool), facts());
    expect(pick).to.include({ trackId: 't4', artistId: 'c', reason: 'similar to Seed Song (scrobbler 0.90)' });
    expect(pick.score).to.be.within(0.9, 0.9 + WEIGHTS.jitter);
  });

  it('scores every signal and lists each in the reason', () => {
    const scored = scoreCandidate(pool[2]!, 'artist', noFeedback(), { lastPlayed: new Map([['t3', uts(41)]]), now });
    expect(scored.reasons).to.deep.equal(['similar to A (scrobbler 0.82)', 'tag: dream pop', 'not played for 41 days']);
    expect(scored.score).to.be.closeTo(0.7 * 0.82 + 0.2 + 0.2, 1e-9);
    expect(scoreCandidate(pool[4]!, 'mood', noFeedback(), facts()).reasons).to.deep.equal(['mood: dream pop', 'mood: shoegaze']);
  });

  it('is deterministic: the same session and facts pick the same track', () => {
    const tied = [entry('x1', 'a', { same_artist: 'A' }), entry('x2', 'b', { same_artist: 'A' }), entry('x3', 'c', { same_artist: 'A' })];
    const picks = Array.from({ length: 5 }, () => pickNext(session(tied), facts()).trackId);
    expect(new Set(picks).size).to.equal(1);
  });

  it('never repeats a track in a session, nor the artist just played, while others remain', () => {
    const s = session(pool, { picks: [{ trackId: 't4', artistId: 'c', outcome: 'played' }, { trackId: 't1', artistId: 'a', outcome: 'played' }] });
    const pick = pickNext(s, facts());
    expect(pick.trackId).to.equal('t3');
    const onlyA = session([pool[0]!, pool[1]!], { picks: [{ trackId: 't1', artistId: 'a', outcome: 'played' }] });
    expect(pickNext(onlyA, facts()).trackId).to.equal('t2');
  });

  it('once the whole pool is played, starts over on it without repeating the track just heard', () => {
    const s = session([pool[0]!, pool[1]!], { picks: [{ trackId: 't1', artistId: 'a', outcome: 'played' }, { trackId: 't2', artistId: 'a', outcome: 'played' }] });
    expect(pickNext(s, facts()).trackId).to.equal('t1');
  });

  it('given a thumbs-down on an artist in another session, then its tracks sink and the reason says why', () => {
    const feedback = noFeedback();
    feedback.artists.set('c', { ups: 0, downs: 2, skips: 0 });
    const pick = pickNext(session(pool), facts({ feedback }));
    expect(pick.trackId).to.equal('t3');
    const sunk = scoreCandidate(pool[3]!, 'artist', feedback, facts());
    expect(sunk.reasons).to.include('thumbs-down on C ×2');
    expect(sunk.score).to.be.closeTo(0.9 - 1, 1e-9);
  });

  it('given this session disliked a track or thumbed it down, then the next pick weighs it like cross-session feedback', () => {
    const s = session(pool, { picks: [{ trackId: 't1', artistId: 'a', outcome: 'disliked' }], thumbs: [{ trackId: 't4', artistId: 'c', signal: 'down' }] });
    const pick = pickNext(s, facts());
    expect(pick.trackId).to.equal('t3');
  });

  it('given a track played in the last days, then it sinks below the rest', () => {
    const pick = pickNext(session(pool), facts({ lastPlayed: new Map([['t4', uts(1)]]) }));
    expect(pick.trackId).to.equal('t3');
    expect(scoreCandidate(pool[3]!, 'artist', noFeedback(), { lastPlayed: new Map([['t4', uts(0)]]), now }).reasons).to.include('played today');
  });

  it('given thumbs-up and skips, then they are weighed and named', () => {
    const feedback = noFeedback();
    feedback.tracks.set('t2', { ups: 1, downs: 0, skips: 2 });
    feedback.artists.set('a', { ups: 1, downs: 0, skips: 2 });
    const scored = scoreCandidate(pool[1]!, 'artist', feedback, facts());
    expect(scored.reasons).to.deep.equal(['by A', 'you gave it a thumbs-up', 'skipped 2×', 'you like A']);
    expect(scored.score).to.be.closeTo(0.5 + 0.4 - 0.3 + 0.2, 1e-9);
  });
});
