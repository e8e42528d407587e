import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  ANY,
  type AppendExpectedRevision,
  type CurrentRevision,
  type EventData,
  type JSONType,
  MaxAppendSizeExceededError,
  NO_STREAM,
  type Position as EsdbPosition,
  type RecordedEvent as EsdbRecordedEvent,
  type ReadPosition,
  START as ESDB_START,
  STREAM_EXISTS,
  WrongExpectedVersionError as EsdbWrongExpectedVersionError,
  jsonEvent,
} from '@eventstore/db-client';
import {
  type EventMetadata,
  type ExpectedRevision,
  type NewEvent,
  type Position,
  type RecordedEvent,
  START,
  WrongExpectedVersionError,
  comparePositions,
} from '../event-store.ts';

/** Translations between the port and @eventstore/db-client, kept apart so they test without a server. */

export function toExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return BigInt(expected);
  }
}

/** The port's START sits before every real position; ESDB has a symbolic start instead. */
export function toReadPosition(position: Position): ReadPosition {
  return comparePositions(position, START) <= 0 ? ESDB_START : { ...position };
}

/** Copies, so a caller's stored position never aliases the client's objects. */
export function toPosition(position: EsdbPosition): Position {
  return { commit: position.commit, prepare: position.prepare };
}

/** System events ($metadata, $statsCollected, link events `$>`, …) are never the application's. */
export function isSystemEvent(type: string): boolean {
  return type.startsWith('$');
}

export function toEventData(event: NewEvent): EventData {
  return jsonEvent({
    id: event.id ?? randomUUID(),
    type: event.type,
    // The client JSON-encodes data itself; its JSONType is narrower than what JSON.stringify accepts.
    data: (event.data ?? {}) as JSONType,
    metadata: { at: new Date().toISOString(), ...event.metadata },
  });
}

export function toRecordedEvent(event: EsdbRecordedEvent): RecordedEvent {
  // Servers before 22.6 omit positions on stream reads; the port cannot do without them.
  if (!event.position) throw new Error(`EventStoreDB returned no position for event ${event.id}: server too old`);
  return {
    id: event.id,
    type: event.type,
    streamId: event.streamId,
    revision: Number(event.revision),
    position: toPosition(event.position),
    data: event.data,
    metadata: toMetadata(event.metadata),
    createdAt: event.created,
  };
}

/** The client already parses JSON metadata; anything it could not parse comes back as bytes. */
function toMetadata(metadata: unknown): EventMetadata {
  const isObject = typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) && !(metadata instanceof Uint8Array);
  return isObject ? (metadata as EventMetadata) : {};
}

export function toActualRevision(current: CurrentRevision): number | 'no_stream' {
  return current === NO_STREAM ? 'no_stream' : Number(current);
}

/**
 * Rewrites the client's conflict into the port's. A write over the server's size limit comes back
 * from BatchAppend with an empty message: say what was refused and which setting governs it. Any
 * other error passes through untouched.
 */
export function toPortError(error: unknown, streamId: string, expected: ExpectedRevision): unknown {
  if (error instanceof MaxAppendSizeExceededError) {
    return new Error(`EventStoreDB refused the append to ${streamId}: over its maximum append size of ${error.maxAppendSize} bytes (the server's MaxAppendSize setting)`, { cause: error });
  }
  if (!(error instanceof EsdbWrongExpectedVersionError)) return error;
  return new WrongExpectedVersionError(streamId, expected, toActualRevision(error.actualVersion));
}

/**
 * Groups an object-mode stream into batches of at most `batchSize`, handing over whatever is buffered
 * rather than waiting for a full batch, so a live subscription delivers each event promptly.
 */
export async function* readBatches<T>(source: Readable, batchSize: number, signal: AbortSignal): AsyncGenerator<T[]> {
  let failure: { error: unknown } | undefined;
  // Kept for the stream's life: an 'error' with no listener would crash the process.
  source.on('error', (error: unknown) => (failure ??= { error }));
  while (!signal.aborted) {
    const batch: T[] = [];
    for (let item: T | null; batch.length < batchSize && (item = source.read() as T | null) !== null; ) batch.push(item);
    if (batch.length > 0) {
      yield batch;
      continue;
    }
    if (failure) throw failure.error;
    if (source.readableEnded) return;
    await readableOrDone(source, signal);
  }
}

function readableOrDone(source: Readable, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      source.off('readable', done).off('end', done).off('error', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    source.on('readable', done).on('end', done).on('error', done);
    signal.addEventListener('abort', done, { once: true });
  });
}
