import { Conflict, NotFound } from '../../shared/errors.ts';
import type { Outcome, PoolEntry, RadioSessionEvent, SeedKind, Signal, WantedTrack } from '../../shared/events/radio.events.ts';
import { assertNever } from '../../shared/never.ts';
import { usernameKey } from '../../shared/usernames.ts';
import { type PickFacts, type SessionSoFar, pickNext } from './pick-next.ts';

/** One radio session, stream `radio-<id>`. */
export interface RadioSessionState {
  status: 'none' | 'active' | 'ended';
  owner: string | null;
  startedAt: string | null;
  seedKind: SeedKind;
  seedId: string;
  seedLabel: string;
  /** Playable candidates the seed found; `pool` keeps the best of them. */
  poolSize: number;
  pool: PoolEntry[];
  picks: SessionSoFar['picks'];
  thumbs: SessionSoFar['thumbs'];
}

export const initialState = (): RadioSessionState => ({
  status: 'none', owner: null, startedAt: null, seedKind: 'artist', seedId: '', seedLabel: '', poolSize: 0, pool: [], picks: [], thumbs: [],
});

export function evolve(state: RadioSessionState, event: RadioSessionEvent): RadioSessionState {
  switch (event.type) {
    case 'RadioSessionStarted':
      return {
        ...state, status: 'active', owner: event.data.username, startedAt: event.data.at,
        seedKind: event.data.seed_kind, seedId: event.data.seed_id, seedLabel: event.data.seed_label, poolSize: event.data.pool_size, pool: event.data.pool,
      };
    case 'RadioTrackPicked':
      return { ...state, picks: [...state.picks, { trackId: event.data.canonical_track_id, artistId: event.data.artist_id, outcome: null }] };
    case 'RadioOutcomeLogged':
      return { ...state, picks: state.picks.map((p, i) => (i + 1 === event.data.position ? { ...p, outcome: event.data.outcome } : p)) };
    case 'RadioFeedbackGiven':
      return { ...state, thumbs: [...state.thumbs, { trackId: event.data.canonical_track_id, artistId: event.data.artist_id, signal: event.data.signal }] };
    case 'RadioSessionEnded':
      return { ...state, status: 'ended' };
    case 'RadioSessionResumed':
      return { ...state, status: 'active' };
    case 'RadioDiscoveriesWanted':
      return state;
    default:
      return assertNever(event);
  }
}

interface Meta {
  sessionId: string;
  username: string;
  /** When the caller's account was registered: a deleted namesake's sessions are not theirs. */
  userSince: string;
  now: string;
}

export interface Seed {
  kind: SeedKind;
  id: string;
  label: string;
}

export type RadioSessionCommand =
  | { type: 'StartSession'; seed: Seed; poolSize: number; pool: PoolEntry[]; wanted: WantedTrack[]; facts: PickFacts; meta: Meta }
  | { type: 'Advance'; outcome: Outcome; facts: PickFacts; meta: Meta }
  | { type: 'GiveFeedback'; trackId: string; artistId: string | null; signal: Signal; meta: Meta }
  | { type: 'EndSession'; cause: 'ended' | 'replaced'; meta: Meta }
  | { type: 'ResumeSession'; meta: Meta };

/** The caller's own session; anyone else's and none at all look the same. */
export const isOwn = (state: RadioSessionState, username: string, userSince: string): boolean =>
  state.status !== 'none' && usernameKey(state.owner ?? '') === usernameKey(username) && state.startedAt! >= userSince;

export function decide(state: RadioSessionState, command: RadioSessionCommand): RadioSessionEvent[] {
  const { sessionId: session_id, username, userSince, now: at } = command.meta;
  const base = { session_id, username, at };
  if (command.type === 'StartSession') {
    if (state.status !== 'none') throw new Conflict(`radio session ${session_id} already exists`);
    const { seed, pool, poolSize, wanted, facts } = command;
    const started: RadioSessionEvent = { type: 'RadioSessionStarted', data: { ...base, seed_kind: seed.kind, seed_id: seed.id, seed_label: seed.label, pool_size: poolSize, pool } };
    const discoveries: RadioSessionEvent[] = wanted.length > 0 ? [{ type: 'RadioDiscoveriesWanted', data: { ...base, wanted } }] : [];
    return [started, ...discoveries, picked(evolve(state, started), session_id, facts, base)];
  }
  if (!isOwn(state, username, userSince)) {
    // Replacing a session not started yet (its start races this one and ends itself when it sees it
    // was overtaken) or a deleted namesake's: nothing to end.
    if (command.type === 'EndSession' && command.cause === 'replaced') return [];
    throw new RadioSessionNotFound();
  }
  switch (command.type) {
    case 'Advance': {
      if (state.status !== 'active') throw new SessionNotActive();
      const current = state.picks.at(-1);
      const logged: RadioSessionEvent[] = current
        ? [{ type: 'RadioOutcomeLogged', data: { ...base, position: state.picks.length, canonical_track_id: current.trackId, artist_id: current.artistId, outcome: command.outcome } }]
        : [];
      return [...logged, picked(logged.reduce(evolve, state), session_id, command.facts, base)];
    }
    case 'GiveFeedback':
      return [{ type: 'RadioFeedbackGiven', data: { ...base, canonical_track_id: command.trackId, artist_id: command.artistId, signal: command.signal } }];
    case 'EndSession':
      return state.status === 'active' ? [{ type: 'RadioSessionEnded', data: { ...base, cause: command.cause } }] : [];
    case 'ResumeSession':
      return state.status === 'ended' ? [{ type: 'RadioSessionResumed', data: base }] : [];
    default:
      return assertNever(command);
  }
}

function picked(state: RadioSessionState, sessionId: string, facts: PickFacts, base: { session_id: string; username: string; at: string }): RadioSessionEvent {
  const pick = pickNext({ sessionId, seedKind: state.seedKind, pool: state.pool, picks: state.picks, thumbs: state.thumbs }, facts);
  return {
    type: 'RadioTrackPicked',
    data: { ...base, position: state.picks.length + 1, canonical_track_id: pick.trackId, artist_id: pick.artistId, score: pick.score, reason: pick.reason },
  };
}

export class RadioSessionNotFound extends NotFound {
  constructor() {
    super('Radio session not found');
  }
}

export class SessionNotActive extends Conflict {
  constructor() {
    super('This radio session has ended: resume it first');
  }
}
