import type { DomainEvent } from '../../shared/events/index.ts';
import { eventSchemas } from '../../shared/events/index.ts';
import { Conflict } from '../../shared/errors.ts';
import { aggregate } from './aggregate.ts';
import { type AppendResult, type EventMetadata, type EventStore, WrongExpectedVersionError } from './event-store.ts';

export interface Decider<State, Command, Event extends DomainEvent> {
  initialState(): State;
  evolve(state: State, event: Event): State;
  decide(state: State, command: Command): Event[];
}

export interface Handled<Event, State = unknown> {
  events: Event[];
  /** The stream's state with `events` folded in: what the write side now knows. */
  state: State;
  /** Undefined when the command decided nothing. */
  result?: AppendResult;
}

const MAX_ATTEMPTS = 5;

/**
 * Loads a stream, folds it, decides, and appends at the revision it read. A lost race reloads and
 * decides again, a bounded number of times, then answers 409.
 */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command | ((state: State) => Command),
  metadata: EventMetadata,
): Promise<Handled<Event, State>> {
  for (let attempt = 1; ; attempt++) {
    const { state, expected } = await aggregate(store, streamId, decider.evolve, decider.initialState());
    const events = decider.decide(state, typeof command === 'function' ? (command as (s: State) => Command)(state) : command);
    const after = events.reduce(decider.evolve, state);
    if (events.length === 0) return { events, state: after };
    try {
      const result = await store.append(streamId, events.map((e) => toNewEvent(e, metadata)), expected);
      return { events, state: after, result };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      if (attempt >= MAX_ATTEMPTS) throw new Conflict(`concurrent change of ${streamId}, try again`);
    }
  }
}

/** Validates an event against its schema before it is written: the log only holds well-formed facts. */
export function toNewEvent(event: DomainEvent, metadata: EventMetadata) {
  const schema = eventSchemas[event.type];
  const data = schema.parse(event.data);
  return { type: event.type, data, metadata };
}
