import type { EventStore } from '../../infra/eventstore/event-store.ts';
import type { Outcome } from '../../shared/events/radio.events.ts';
import type { PickFacts } from './pick-next.ts';
import { type RadioSessionState, decide } from './radio-session.decider.ts';

/** Sessions whose last facts are kept: as many as session-log.ts keeps folded. */
const KEPT_SESSIONS = 200;
// Per event store, as the folds: tests run several services in one process.
const kept = new WeakMap<EventStore, Map<string, PickFacts>>();

/** The facts a session's last pick weighed (the next advance guesses its pick from them). */
export function rememberFacts(store: EventStore, sessionId: string, facts: PickFacts): void {
  let sessions = kept.get(store);
  if (!sessions) kept.set(store, (sessions = new Map()));
  sessions.delete(sessionId);
  sessions.set(sessionId, facts);
  if (sessions.size > KEPT_SESSIONS) sessions.delete(sessions.keys().next().value!);
}

/**
 * The track an advance would pick if the facts had not changed since the session's last pick, so
 * that its card is read with the new facts, in the same trip. Only a guess: the pick itself is
 * decided on the new facts, and a wrong guess costs a read of the right card after it.
 */
export function guessPick(store: EventStore, sessionId: string, state: RadioSessionState, outcome: Outcome, username: string, now: Date): string | undefined {
  const facts = kept.get(store)?.get(sessionId);
  if (!facts) return undefined;
  try {
    const events = decide(state, { type: 'Advance', outcome, facts: { ...facts, now }, meta: { sessionId, username, userSince: '', now: now.toISOString() } });
    const picked = events.at(-1);
    return picked?.type === 'RadioTrackPicked' ? picked.data.canonical_track_id : undefined;
  } catch {
    // Not an advance the session takes (ended, not the caller's): the decision will say why.
    return undefined;
  }
}
