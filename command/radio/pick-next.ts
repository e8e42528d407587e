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
  const prefix = fnv1a(`${session.sessionId}|${position}|`);
  // The pool is ranked on scores alone; only the winner's reasons are written out.
  let best: { entry: PoolEntry; score: number } | undefined;
  for (const entry of candidates) {
    const total = scoreOf(entry, session.seedKind, feedback, facts) + WEIGHTS.jitter * jitter(fnv1a(entry.track_id, prefix));
    if (!best || total > best.score || (total === best.score && entry.track_id < best.entry.track_id)) best = { entry, score: total };
  }
  if (!best) throw new Error('a radio pool is never empty');
  const { entry, score } = best;
  const { reasons } = scoreCandidate(entry, session.seedKind, feedback, facts);
  return { trackId: entry.track_id, artistId: entry.artist_id, score: Math.round(score * 1000) / 1000, reason: reasons.join(' · ') };
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

/** Adds one signal: its weight, and its text for the reason (written only when asked for). */
type AddSignal = (weight: number, text: () => string) => void;

/** One candidate's score and the signals behind it, strongest tie to the seed first. */
export function scoreCandidate(entry: PoolEntry, seedKind: SeedKind, feedback: PickFacts['feedback'], facts: Pick<PickFacts, 'lastPlayed' | 'now'>) {
  const signals: { weight: number; text: () => string }[] = [];
  signalsOf(entry, seedKind, feedback, facts, (weight, text) => signals.push({ weight, text }));
  return { score: signals.reduce((sum, s) => sum + s.weight, 0), reasons: signals.map((s) => s.text()) };
}

/** The score alone, summed in the same order as `scoreCandidate` (the same number to the last bit). */
export function scoreOf(entry: PoolEntry, seedKind: SeedKind, feedback: PickFacts['feedback'], facts: Pick<PickFacts, 'lastPlayed' | 'now'>): number {
  let score = 0;
  signalsOf(entry, seedKind, feedback, facts, (weight) => void (score += weight));
  return score;
}

function signalsOf(entry: PoolEntry, seedKind: SeedKind, feedback: PickFacts['feedback'], facts: Pick<PickFacts, 'lastPlayed' | 'now'>, add: AddSignal): void {
  if (entry.similar_track) {
    const { of, match } = entry.similar_track;
    add(WEIGHTS.similarTrack * match, () => `similar to ${of} (scrobbler ${match.toFixed(2)})`);
  }
  if (entry.similar_artist) {
    const { of, match } = entry.similar_artist;
    add(WEIGHTS.similarArtist * match, () => `similar to ${of} (scrobbler ${match.toFixed(2)})`);
  }
  if (entry.same_album) add(WEIGHTS.sameAlbum, () => `on ${entry.same_album}`);
  if (entry.same_artist) add(WEIGHTS.sameArtist, () => `by ${entry.same_artist}`);
  const term = seedKind === 'mood' || seedKind === 'genre' ? seedKind : 'tag';
  for (const shared of entry.shared.slice(0, WEIGHTS.sharedTermsCounted)) add(WEIGHTS.sharedTerm, () => `${term}: ${shared}`);
  feedbackSignals(entry, feedback, add);
  recencySignal(entry, facts, add);
}

function feedbackSignals(entry: PoolEntry, feedback: PickFacts['feedback'], add: AddSignal): void {
  const track = feedback.tracks.get(entry.track_id);
  if (track && track.downs > track.ups) add(WEIGHTS.trackDown, () => 'you gave it a thumbs-down');
  else if (track && track.ups > track.downs) add(WEIGHTS.trackUp, () => 'you gave it a thumbs-up');
  if (track && track.skips > 0) add(Math.max(WEIGHTS.skipFloor, WEIGHTS.skip * track.skips), () => `skipped ${track.skips}×`);
  const artist = entry.artist_id ? feedback.artists.get(entry.artist_id) : undefined;
  if (!artist) return;
  const net = artist.ups - artist.downs;
  const name = entry.artist_name ?? 'this artist';
  if (net < 0) add(Math.max(WEIGHTS.artistDownFloor, WEIGHTS.artistDown * -net), () => `thumbs-down on ${name} ×${-net}`);
  if (net > 0) add(Math.min(WEIGHTS.artistUpCap, WEIGHTS.artistUp * net), () => `you like ${name}`);
}

function recencySignal(entry: PoolEntry, facts: Pick<PickFacts, 'lastPlayed' | 'now'>, add: AddSignal): void {
  const last = facts.lastPlayed.get(entry.track_id);
  if (last === undefined) return;
  const days = Math.floor((facts.now.getTime() / 1000 - last) / DAY_SECONDS);
  if (days < RECENT_DAYS) add(WEIGHTS.playedRecently, () => (days === 0 ? 'played today' : `played ${days} day${days === 1 ? '' : 's'} ago`));
  else if (days >= LONG_UNPLAYED_DAYS) add(WEIGHTS.longUnplayed, () => `not played for ${days} days`);
}

/** FNV-1a of a string, continued from `from` (the hash of what came before it). */
function fnv1a(key: string, from = 0x811c9dc5): number {
  let hash = from;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash;
}

/** A stable number in [0, 1) from a hash: the same session, position and track always agree. */
const jitter = (hash: number): number => (hash >>> 0) / 0x1_0000_0000;
