import type { AppContext } from '../../infra/context.ts';
import { toNewEvent } from '../../infra/eventstore/command-handler.ts';
import { type AppendResult, type EventStore, WrongExpectedVersionError } from '../../infra/eventstore/event-store.ts';
import { Conflict } from '../../shared/errors.ts';
import type { ScrobbleEvent } from '../../shared/events/scrobbles.events.ts';
import { scrobblesStream } from '../../shared/streams.ts';
import { type ScrobblesCommand, type ScrobblesState, decide, evolve, initialState } from './scrobbles.decider.ts';

const READ_BATCH = 500;
const MAX_ATTEMPTS = 5;

interface Cached {
  /** Revision of the last event folded in; -1 before the stream exists. */
  revision: number;
  state: ScrobblesState;
}

/**
 * The command handler of scrobble streams. A history of a million scrobbles is too long to read
 * and fold for every page, so each process keeps the folded state per stream and reads only the
 * events appended since (by itself or another process) before deciding. The append still states
 * its expected revision: a concurrent writer makes it catch up and decide again.
 */
const caches = new WeakMap<EventStore, Map<string, Cached>>();
const queues = new WeakMap<EventStore, Map<string, Promise<unknown>>>();

function cacheOf(store: EventStore): Map<string, Cached> {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new Map()));
  return cache;
}

/** Commands on one stream run one at a time in a process, so they do not race each other. */
function serialized<T>(store: EventStore, streamId: string, work: () => Promise<T>): Promise<T> {
  let queue = queues.get(store);
  if (!queue) queues.set(store, (queue = new Map()));
  const run = (queue.get(streamId) ?? Promise.resolve()).then(work, work);
  const tail = run.catch(() => undefined);
  queue.set(streamId, tail);
  void tail.then(() => {
    if (queue.get(streamId) === tail) queue.delete(streamId);
  });
  return run;
}

async function catchUp(store: EventStore, streamId: string, cached: Cached): Promise<void> {
  for (;;) {
    const events = await store.readStream(streamId, { fromRevision: cached.revision + 1, maxCount: READ_BATCH });
    for (const e of events) {
      evolve(cached.state, { type: e.type, data: e.data } as ScrobbleEvent);
      cached.revision = e.revision;
    }
    if (events.length < READ_BATCH) return;
  }
}

export interface ScrobblesHandled {
  events: ScrobbleEvent[];
  result?: AppendResult;
}

/** Decides `command` on the user's scrobble stream and appends what it decided. */
export function onScrobbles(ctx: AppContext, userKey: string, command: ScrobblesCommand): Promise<ScrobblesHandled> {
  const { store } = ctx;
  const streamId = scrobblesStream(userKey);
  return serialized(store, streamId, async () => {
    const cache = cacheOf(store);
    for (let attempt = 1; ; attempt++) {
      let cached = cache.get(streamId);
      if (!cached) cache.set(streamId, (cached = { revision: -1, state: initialState() }));
      await catchUp(store, streamId, cached);
      const events = decide(cached.state, command);
      if (events.length === 0) return { events };
      try {
        const result = await store.append(streamId, events.map((e) => toNewEvent(e, { actor: command.meta.actor })), cached.revision < 0 ? 'no_stream' : cached.revision);
        for (const e of events) evolve(cached.state, e);
        cached.revision = result.nextRevision;
        return { events, result };
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        if (attempt >= MAX_ATTEMPTS) throw new Conflict(`concurrent change of ${streamId}, try again`);
      }
    }
  });
}

/** Reads the folded state (for a decision made outside the decider, such as which ids to stamp). */
export function scrobblesState(ctx: AppContext, userKey: string): Promise<ScrobblesState> {
  const streamId = scrobblesStream(userKey);
  return serialized(ctx.store, streamId, async () => {
    const cache = cacheOf(ctx.store);
    let cached = cache.get(streamId);
    if (!cached) cache.set(streamId, (cached = { revision: -1, state: initialState() }));
    await catchUp(ctx.store, streamId, cached);
    return cached.state;
  });
}
