import type { Outcome, PoolEntry, SeedKind, Signal } from '../../shared/events/radio.events.ts';

/** Thumbs and outcomes counted for one track or one artist. */
export interface Tally {
  ups: number;
  downs: number;
  skips: number;
}

/** What the session itself has done so far: its picks with their outcomes, and its thumbs. */
export interface SessionSoFar {
  sessionId: string;
  seedKind: SeedKind;
  pool: PoolEntry[];
  picks: { trackId: string; artistId: string | null; outcome: Outcome | null }[];
  thumbs: { trackId: string; artistId: string | null; signal: Signal }[];
}

/** What the log says beyond the session: the user's other sessions' feedback, and the scrobble mirror. */
export interface PickFacts {
  /** Feedback from the user's other radio sessions, by track and by artist. */
  feedback: { tracks: Map<string, Tally>; artists: Map<string, Tally> };
  /** When the user last played each pool track (unix seconds), from the scrobble mirror. */
  lastPlayed: Map<string, number>;
  now: Date;
}

export interface ChosenTrack {
  trackId: string;
  artistId: string | null;
  score: number;
  /** The signals that chose it, for the listener: "similar to X (scrobbler 0.82) · tag: dream pop". */
  reason: string;
}

/** Weights of the signals. Seed ties dominate; feedback can sink a track below any seed tie. */
export const WEIGHTS = {
  similarTrack: 1.0,
  similarArtist: 0.7,
  sameAlbum: 0.6,
  sameArtist: 0.5,
  sharedTerm: 0.2,
  sharedTermsCounted: 3,
  trackUp: 0.4,
  trackDown: -2,
  skip: -0.15,
  skipFloor: -0.6,
  artistUp: 0.2,
  artistUpCap: 0.6,
  artistDown: -0.5,
  artistDownFloor: -2,
  playedRecently: -1,
  longUnplayed: 0.2,
  /** Below 1/20 of the smallest seed weight: it orders near-ties, never a real signal. */
  jitter: 0.01,
} as const;

const RECENT_DAYS = 3;
const LONG_UNPLAYED_DAYS = 30;
const DAY_SECONDS = 86_400;

/**
 * The next track of a session: the best-scoring candidate that is neither in this session
 * already nor by the artist just played (each rule gives way only when nothing else is left).
 * Deterministic: the same session and facts always pick the same track.
 */
export function pickNext(session: SessionSoFar, facts: PickFacts): ChosenTrack {
  const candidates = varied(session);
  const feedback = withSession(session, facts.feedback);
  const position = session.picks.length + 1;
  let best: ChosenTrack | undefined;
  for (const entry of candidates) {
    const { score, reasons } = scoreCandidate(entry, session.seedKind, feedback, facts);
    const total = score + WEIGHTS.jitter * jitter(`${session.sessionId}|${position}|${entry.track_id}`);
    if (!best || total > best.score || (total === best.score && entry.track_id < best.trackId)) {
      best = { trackId: entry.track_id, artistId: entry.artist_id, score: total, reason: reasons.join(' · ') };
    }
  }
  if (!best) throw new Error('a radio pool is never empty');
  return { ...best, score: Math.round(best.score * 1000) / 1000 };
}

/** The pool without this session's tracks and without the artist just played, while anything is left. */
function varied(session: SessionSoFar): PoolEntry[] {
  const played = new Set(session.picks.map((p) => p.trackId));
  const last = session.picks.at(-1);
  const unplayed = session.pool.filter((e) => !played.has(e.track_id));
  // Once the whole pool is played, the session starts over on it, never repeating the track just heard.
  const fresh = unplayed.length > 0 ? unplayed : session.pool.filter((e) => e.track_id !== last?.trackId);
  const otherArtist = fresh.filter((e) => !last?.artistId || e.artist_id !== last.artistId);
  return otherArtist.length > 0 ? otherArtist : fresh.length > 0 ? fresh : session.pool;
}

/** Other sessions' feedback plus this session's own thumbs and outcomes. */
function withSession(session: SessionSoFar, other: PickFacts['feedback']): PickFacts['feedback'] {
  const tracks = new Map([...other.tracks].map(([k, v]) => [k, { ...v }]));
  const artists = new Map([...other.artists].map(([k, v]) => [k, { ...v }]));
  const add = (trackId: string, artistId: string | null, field: keyof Tally) => {
    bump(tracks, trackId, field);
    if (artistId) bump(artists, artistId, field);
  };
  for (const p of session.picks) {
    if (p.outcome === 'liked') add(p.trackId, p.artistId, 'ups');
    if (p.outcome === 'disliked') add(p.trackId, p.artistId, 'downs');
    if (p.outcome === 'skipped') add(p.trackId, p.artistId, 'skips');
  }
  for (const t of session.thumbs) add(t.trackId, t.artistId, t.signal === 'up' ? 'ups' : 'downs');
  return { tracks, artists };
}

function bump(map: Map<string, Tally>, key: string, field: keyof Tally): void {
  const tally = map.get(key) ?? { ups: 0, downs: 0, skips: 0 };
  tally[field] += 1;
  map.set(key, tally);
}

/** One candidate's score and the signals behind it, strongest tie to the seed first. */
export function scoreCandidate(entry: PoolEntry, seedKind: SeedKind, feedback: PickFacts['feedback'], facts: Pick<PickFacts, 'lastPlayed' | 'now'>) {
  const signals: { weight: number; text: string }[] = [];
  const add = (weight: number, text: string) => signals.push({ weight, text });
  if (entry.similar_track) add(WEIGHTS.similarTrack * entry.similar_track.match, `similar to ${entry.similar_track.of} (scrobbler ${entry.similar_track.match.toFixed(2)})`);
  if (entry.similar_artist) add(WEIGHTS.similarArtist * entry.similar_artist.match, `similar to ${entry.similar_artist.of} (scrobbler ${entry.similar_artist.match.toFixed(2)})`);
  if (entry.same_album) add(WEIGHTS.sameAlbum, `on ${entry.same_album}`);
  if (entry.same_artist) add(WEIGHTS.sameArtist, `by ${entry.same_artist}`);
  const term = seedKind === 'mood' || seedKind === 'genre' ? seedKind : 'tag';
  for (const shared of entry.shared.slice(0, WEIGHTS.sharedTermsCounted)) add(WEIGHTS.sharedTerm, `${term}: ${shared}`);
  feedbackSignals(entry, feedback, add);
  recencySignal(entry, facts, add);
  return { score: signals.reduce((sum, s) => sum + s.weight, 0), reasons: signals.map((s) => s.text) };
}

function feedbackSignals(entry: PoolEntry, feedback: PickFacts['feedback'], add: (weight: number, text: string) => void): void {
  const track = feedback.tracks.get(entry.track_id);
  if (track && track.downs > track.ups) add(WEIGHTS.trackDown, 'you gave it a thumbs-down');
  else if (track && track.ups > track.downs) add(WEIGHTS.trackUp, 'you gave it a thumbs-up');
  if (track && track.skips > 0) add(Math.max(WEIGHTS.skipFloor, WEIGHTS.skip * track.skips), `skipped ${track.skips}×`);
  const artist = entry.artist_id ? feedback.artists.get(entry.artist_id) : undefined;
  if (!artist) return;
  const net = artist.ups - artist.downs;
  const name = entry.artist_name ?? 'this artist';
  if (net < 0) add(Math.max(WEIGHTS.artistDownFloor, WEIGHTS.artistDown * -net), `thumbs-down on ${name} ×${-net}`);
  if (net > 0) add(Math.min(WEIGHTS.artistUpCap, WEIGHTS.artistUp * net), `you like ${name}`);
}

function recencySignal(entry: PoolEntry, facts: Pick<PickFacts, 'lastPlayed' | 'now'>, add: (weight: number, text: string) => void): void {
  const last = facts.lastPlayed.get(entry.track_id);
  if (last === undefined) return;
  const days = Math.floor((facts.now.getTime() / 1000 - last) / DAY_SECONDS);
  if (days < RECENT_DAYS) add(WEIGHTS.playedRecently, days === 0 ? 'played today' : `played ${days} day${days === 1 ? '' : 's'} ago`);
  else if (days >= LONG_UNPLAYED_DAYS) add(WEIGHTS.longUnplayed, `not played for ${days} days`);
}

/** A stable number in [0, 1) from a string (FNV-1a): the same session and position always agree. */
function jitter(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) / 0x1_0000_0000;
}
