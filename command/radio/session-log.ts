import { toNewEvent } from '../../infra/eventstore/command-handler.ts';
import { type EventMetadata, type EventStore, WrongExpectedVersionError } from '../../infra/eventstore/event-store.ts';
import { Conflict } from '../../shared/errors.ts';
import type { RadioSessionEvent } from '../../shared/events/radio.events.ts';
import { radioStream } from '../../shared/streams.ts';
import { type RadioSessionCommand, type RadioSessionState, decide, evolve, initialState } from './radio-session.decider.ts';

/** A session stream folded, and the revision of its last event (-1: no event yet). */
interface Folded {
  state: RadioSessionState;
  revision: number;
}

/** Sessions kept folded per process: the ones being listened to (a pool is up to 300 entries). */
const KEPT_SESSIONS = 200;
const MAX_ATTEMPTS = 5;
// Per event store: tests run several services, each with a log of its own, in one process.
const kept = new WeakMap<EventStore, Map<string, Folded>>();

function keptFor(store: EventStore): Map<string, Folded> {
  let sessions = kept.get(store);
  if (!sessions) kept.set(store, (sessions = new Map()));
  return sessions;
}

function keep(store: EventStore, sessionId: string, folded: Folded): void {
  const sessions = keptFor(store);
  sessions.delete(sessionId);
  sessions.set(sessionId, folded);
  if (sessions.size > KEPT_SESSIONS) sessions.delete(sessions.keys().next().value!);
}

/** Folds what the log holds past `from` (the whole stream without it). */
async function catchUp(store: EventStore, sessionId: string, from?: Folded): Promise<Folded> {
  const start = from ?? { state: initialState(), revision: -1 };
  const recorded = await store.readStream(radioStream(sessionId), { fromRevision: start.revision + 1 });
  if (recorded.length === 0) return start;
  const state = recorded.reduce((s, e) => evolve(s, { type: e.type, data: e.data } as RadioSessionEvent), start.state);
  const folded = { state, revision: recorded[recorded.length - 1]!.revision };
  keep(store, sessionId, folded);
  return folded;
}

/**
 * A session as this process last folded it, without a read: the stream only grows, and a decision
 * on a stale fold is appended at a revision the log has passed, so it fails and is decided again.
 * After a restart the fold is rebuilt from the stream.
 */
export async function foldedSession(store: EventStore, sessionId: string): Promise<RadioSessionState> {
  return (keptFor(store).get(sessionId) ?? (await catchUp(store, sessionId))).state;
}

/**
 * Decides on the kept fold and appends at its revision. A lost race (another process, or a request
 * deciding at the same time) catches the fold up and decides again, a bounded number of times, then
 * answers 409. A kept fold that decides nothing or refuses (an ended session another process
 * resumed) is caught up and asked again: it may be stale.
 */
export async function decideOnSession(
  store: EventStore,
  sessionId: string,
  commandFor: (state: RadioSessionState) => Promise<RadioSessionCommand>,
  metadata: EventMetadata,
): Promise<{ events: RadioSessionEvent[]; state: RadioSessionState }> {
  let folded = keptFor(store).get(sessionId);
  let fresh = folded === undefined;
  folded ??= await catchUp(store, sessionId);
  for (let attempt = 1; ; attempt++) {
    let events: RadioSessionEvent[];
    try {
      events = decide(folded.state, await commandFor(folded.state));
    } catch (error) {
      if (fresh) throw error;
      events = [];
    }
    if (events.length === 0 && !fresh) {
      folded = await catchUp(store, sessionId, folded);
      fresh = true;
      continue;
    }
    const state = events.reduce(evolve, folded.state);
    if (events.length === 0) return { events, state };
    try {
      const result = await store.append(radioStream(sessionId), events.map((e) => toNewEvent(e, metadata)), folded.revision < 0 ? 'no_stream' : folded.revision);
      keep(store, sessionId, { state, revision: result.nextRevision });
      return { events, state };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new Conflict(`concurrent change of radio session ${sessionId}, try again`);
      folded = await catchUp(store, sessionId, folded);
      fresh = true;
    }
  }
}
