import { type Position, START, comparePositions } from '../eventstore/event-store.ts';
import type { Checkpoint, Stall } from './checkpoints.ts';
import type { Projector } from './projector.ts';
import type { Shadow } from './shadow.ts';

/** A projector whose batch failed: it retries alone, at its own pace, from where it stood. */
export interface LaneFailure {
  /** Failed attempts so far. */
  attempts: number;
  /** `Date.now()` of the next attempt. */
  retryAt: number;
  error: string;
}

/** Projectors that stand at the same position and so read the log together. */
export interface Lane {
  projectors: Projector[];
  position: Position;
  /** Replaying from the start of the log (a rebuild or a version bump) until it joins the leader. */
  rebuilding: boolean;
  /** Set on a lane of one projector while that projector retries a failed batch. */
  failure?: LaneFailure;
  /** A rebuild replaying into copies of its tables, swapped in once it reaches the leader. */
  shadow?: Shadow;
}

interface LaneEntry {
  projector: Projector;
  position: Position;
  rebuilding: boolean;
}

/** Groups projectors by their stored position; a lane rebuilds while all of its projectors do. */
export function lanesFrom(entries: LaneEntry[]): Lane[] {
  const lanes: Lane[] = [];
  for (const { projector, position, rebuilding } of entries) {
    const lane = lanes.find((l) => comparePositions(l.position, position) === 0);
    if (lane) {
      lane.projectors.push(projector);
      lane.rebuilding &&= rebuilding;
    } else lanes.push({ projectors: [projector], position, rebuilding });
  }
  return lanes;
}

/**
 * The lane furthest along among those that are not failing: the live read models. Lagging lanes
 * (rebuilds, retries) read up to it, then join it. A failing lane leads only when every lane fails;
 * a rebuild into a shadow never leads (with nothing live beside it, it reads to the head of the log).
 */
export function leaderOf(lanes: Lane[]): Lane | undefined {
  const furthest = (candidates: Lane[]) =>
    candidates.reduce<Lane | undefined>((a, b) => (!a || comparePositions(b.position, a.position) > 0 ? b : a), undefined);
  const live = lanes.filter((l) => !l.shadow);
  return furthest(live.filter((l) => !l.failure)) ?? furthest(live);
}

/** Lanes at the same position become one, except failing ones and shadows, which stay alone until they succeed or swap in. */
export function mergeLanes(lanes: Lane[]): Lane[] {
  const merged: Lane[] = [];
  for (const lane of lanes) {
    if (lane.projectors.length === 0) continue;
    const alone = (l: Lane) => l.failure || l.shadow;
    const same = !alone(lane) && merged.find((m) => !alone(m) && comparePositions(m.position, lane.position) === 0);
    if (same) {
      same.projectors.push(...lane.projectors);
      same.rebuilding &&= lane.rebuilding;
    } else merged.push({ ...lane, projectors: [...lane.projectors] });
  }
  return merged;
}

/** The leader holds the live read models: a rebuild that leads (nothing healthy ahead of it) is live. */
export function promoteLeader(lanes: Lane[]): void {
  const leader = leaderOf(lanes);
  if (leader && !leader.failure) leader.rebuilding = false;
}

/**
 * The lanes a runner starts with, from the stored checkpoints (none for a new or bumped projector,
 * which replays from the start). A projector stalled before gets one attempt before it stalls again.
 */
export function lanesAtStart(projectors: Projector[], checkpointOf: (p: Projector) => Checkpoint | undefined, maxAttempts: number) {
  const entries: LaneEntry[] = [];
  const retried: Lane[] = [];
  const stalls: [string, Stall][] = [];
  for (const projector of projectors) {
    const checkpoint = checkpointOf(projector);
    const position = checkpoint?.position ?? START;
    if (checkpoint?.stall) {
      stalls.push([projector.name, checkpoint.stall]);
      retried.push({ projectors: [projector], position, rebuilding: false, failure: { attempts: maxAttempts - 1, retryAt: 0, error: checkpoint.stall.error } });
    } else entries.push({ projector, position, rebuilding: !checkpoint || checkpoint.state === 'rebuilding' });
  }
  return { lanes: [...lanesFrom(entries), ...retried], stalls };
}
