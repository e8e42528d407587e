import type { Position } from '../eventstore/event-store.ts';
import type { Stall } from './checkpoints.ts';
import type { Lane } from './lanes.ts';
import type { Projector } from './projector.ts';

/**
 * `live`: keeps up with the log; `rebuilding`: replaying behind the live read models; `retrying`: a
 * batch failed and it retries alone with backoff; `stalled`: it kept failing on one event and stopped
 * there until a restart, a rebuild or a version bump.
 */
export type ProjectorState = 'live' | 'rebuilding' | 'retrying' | 'stalled';

export interface ProjectorStatus {
  name: string;
  version: number;
  state: ProjectorState;
  /** The last event it applied. */
  position: Position;
  /** While retrying: failed attempts so far and the last error. */
  failure?: { attempts: number; error: string };
  stall?: Stall;
}

export function statusOf(projectors: Projector[], lanes: Lane[], stalled: ReadonlyMap<string, { position: Position; stall: Stall }>): ProjectorStatus[] {
  return projectors.map((projector) => {
    const base = { name: projector.name, version: projector.version };
    const stop = stalled.get(projector.name);
    if (stop) return { ...base, state: 'stalled', position: stop.position, stall: stop.stall };
    const lane = lanes.find((l) => l.projectors.includes(projector));
    if (!lane) throw new Error(`projector ${projector.name} is in no lane`);
    if (lane.failure) return { ...base, state: 'retrying', position: lane.position, failure: { attempts: lane.failure.attempts, error: lane.failure.error } };
    return { ...base, state: lane.rebuilding ? 'rebuilding' : 'live', position: lane.position };
  });
}
