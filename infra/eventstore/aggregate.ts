import type { DomainEvent } from '../../shared/events/index.ts';
import type { EventStore, ExpectedRevision } from './event-store.ts';

/** A stream folded into a state, and the revision a decision on that state appends at. */
export interface Aggregate<State> {
  state: State;
  /** `no_stream` when the stream has no event yet, else the revision of its last event. */
  expected: ExpectedRevision;
}

/**
 * Reads a stream and folds its events with `evolve` from `initial`: the one way the write side
 * turns a stream into the state it decides on (the events are the stream's own, typed as `Event`).
 */
export async function aggregate<State, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  evolve: (state: State, event: Event) => State,
  initial: State,
): Promise<Aggregate<State>> {
  const recorded = await store.readStream(streamId);
  const state = recorded.reduce((s, e) => evolve(s, { type: e.type, data: e.data } as Event), initial);
  return { state, expected: recorded.length === 0 ? 'no_stream' : recorded[recorded.length - 1]!.revision };
}
