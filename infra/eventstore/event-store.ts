/**
 * The event store port. Every adapter (Postgres table, EventStoreDB) passes the same contract suite
 * in test/integration/eventstore/event-store.contract.ts.
 *
 * Positions are opaque to callers: compare them with `comparePositions`, store them with
 * `encodePosition`/`decodePosition`. The pair mirrors EventStoreDB's {commit, prepare}.
 */

export interface Position {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export const START: Position = Object.freeze({ commit: -1n, prepare: -1n });

export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export function encodePosition(p: Position): string {
  return `${p.commit}/${p.prepare}`;
}

export function decodePosition(s: string): Position {
  const [commit, prepare] = s.split('/');
  if (commit === undefined || prepare === undefined) throw new Error(`bad position ${s}`);
  return { commit: BigInt(commit), prepare: BigInt(prepare) };
}

/** Who caused an event, and in answer to what. Never carries a secret. */
export interface EventMetadata {
  actor?: string | null;
  correlation_id?: string;
  causation_id?: string;
  at?: string;
  [key: string]: unknown;
}

export interface NewEvent {
  /** UUID; generated when absent. */
  id?: string;
  type: string;
  data: unknown;
  metadata?: EventMetadata;
}

export interface RecordedEvent {
  id: string;
  type: string;
  streamId: string;
  /** 0-based revision of the event in its stream. */
  revision: number;
  position: Position;
  data: unknown;
  metadata: EventMetadata;
  createdAt: Date;
}

/** `no_stream`: the stream must not exist; `stream_exists`: it must; a number: its last revision. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

export interface AppendResult {
  /** Revision of the last event written. */
  nextRevision: number;
  /** Position of the last event written; projections wait for it. */
  position: Position;
}

export interface StreamAppend {
  streamId: string;
  events: NewEvent[];
  expectedRevision: ExpectedRevision;
}

export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`wrong expected version on ${streamId}: expected ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedVersionError';
  }
}

export interface ReadStreamOptions {
  fromRevision?: number;
  maxCount?: number;
}

/**
 * A reader that needs the data of a few event types only (a reactor, a projector lane, a waiter
 * for the log to move) names them: events of other types still come, in order and with their
 * positions, but adapters may leave their `data` and `metadata` empty, so that a page of a
 * thousand scrobbles is not carried to a reader that skips it. All events carry them when absent.
 */
export interface DataSelection {
  withDataOf?: readonly string[];
}

export interface ReadAllOptions extends DataSelection {
  /** Exclusive: events strictly after this position. Defaults to the start of the log. */
  after?: Position;
  maxCount?: number;
}

export interface SubscribeOptions extends DataSelection {
  /** Exclusive start position (a stored checkpoint); the start of the log when absent. */
  after?: Position;
  /** Upper bound of one delivered batch. */
  batchSize?: number;
  /**
   * Only appends of these types need to wake the subscriber at once (a reactor's: what it
   * handles); it still finds the others, later, on its next poll. Absent: every append wakes it.
   */
  wakeFor?: readonly string[];
  /**
   * The reader acts on events of these types only (a reactor): an adapter may leave the others out
   * of the batches, and then calls `passed` with a position it has read up to where no batch says
   * so (a run of other events), waiting for it before it goes on. An adapter that delivers every
   * event need not call it.
   */
  onlyTypes?: readonly string[];
  passed?: (position: Position) => Promise<void>;
}

/**
 * A catch-up subscription to the whole log: delivers every committed event after `after` in log
 * order, in batches, then keeps delivering as new events commit. `stop()` ends the iteration.
 */
export interface AllSubscription extends AsyncIterable<RecordedEvent[]> {
  stop(): Promise<void>;
}

export interface EventStore {
  readonly kind: 'postgres' | 'eventstoredb';
  append(streamId: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult>;
  /**
   * Appends to several streams. Atomic on the Postgres adapter (one transaction for the batch);
   * EventStoreDB appends stream by stream, so a failure can leave earlier streams written.
   * Returns the position of the last event written.
   */
  appendMany(appends: StreamAppend[]): Promise<AppendResult>;
  /** Events of one stream in revision order; empty when the stream does not exist. */
  readStream(streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  /** Committed events after a position, in log order. */
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options?: SubscribeOptions): AllSubscription;
  /** Position of the newest committed event, or START when the log is empty. */
  headPosition(): Promise<Position>;
  close(): Promise<void>;
}
