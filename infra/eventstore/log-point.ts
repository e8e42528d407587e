import { z } from 'zod';
import { type Position, type RecordedEvent, comparePositions, decodePosition } from './event-store.ts';

/** A point of the log a client names: a position as the log gives it (`<commit>/<prepare>`), or an ISO time. */
export const LogPoint = z.union([
  z.string().regex(/^\d{1,19}\/\d{1,19}$/).transform((s) => ({ position: decodePosition(s) })),
  z.iso.datetime({ offset: true }).transform((s) => ({ time: new Date(s) })),
]);
export type LogPoint = z.output<typeof LogPoint>;

/** Whether an event was in the log at that point. */
export const atOrBefore = (point: LogPoint) => (e: RecordedEvent) =>
  'position' in point ? comparePositions(e.position, point.position) <= 0 : e.createdAt.getTime() <= point.time.getTime();

/** Whether the event is the point itself (a position, or an event recorded at that very time). */
export const isAt = (point: LogPoint, e: RecordedEvent) =>
  'position' in point ? comparePositions(e.position, point.position) === 0 : e.createdAt.getTime() === point.time.getTime();

/** Positions as audit cursors: opaque to clients (base64url), and stable whatever is appended later. */
export const encodeCursor = (p: Position) => Buffer.from(`${p.commit}/${p.prepare}`, 'utf8').toString('base64url');
export const Cursor = z
  .string()
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/)
  .transform((s) => Buffer.from(s, 'base64url').toString('utf8'))
  .pipe(z.string().regex(/^\d{1,19}\/\d{1,19}$/, 'not a cursor this service gave'))
  .transform(decodePosition);
