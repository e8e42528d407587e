import { type Position, comparePositions } from '../eventstore/event-store.ts';
import type { Projector } from './projector.ts';

/** Projectors that stand at the same position and so read the log together. */
export interface Lane {
  projectors: Projector[];
  position: Position;
}

/** Groups projectors by their stored position. */
export function lanesFrom(projectors: Projector[], positionOf: (p: Projector) => Position): Lane[] {
  const lanes: Lane[] = [];
  for (const projector of projectors) {
    const position = positionOf(projector);
    const lane = lanes.find((l) => comparePositions(l.position, position) === 0);
    if (lane) lane.projectors.push(projector);
    else lanes.push({ projectors: [projector], position });
  }
  return lanes;
}

/** The lane furthest along: the live read models. Lagging lanes (rebuilds) read up to it, then join it. */
export function leaderOf(lanes: Lane[]): Lane | undefined {
  return lanes.reduce<Lane | undefined>((a, b) => (!a || comparePositions(b.position, a.position) > 0 ? b : a), undefined);
}

export function mergeLanes(lanes: Lane[]): Lane[] {
  const merged: Lane[] = [];
  for (const lane of lanes) {
    const same = merged.find((m) => comparePositions(m.position, lane.position) === 0);
    if (same) same.projectors.push(...lane.projectors);
    else if (lane.projectors.length > 0) merged.push({ projectors: [...lane.projectors], position: lane.position });
  }
  return merged;
}
