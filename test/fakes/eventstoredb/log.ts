/**
 * The double's transaction file: one ordered log of records, as EventStoreDB keeps it. Positions are
 * byte offsets into that file, not counters: a write's records share the commit position (the
 * offset of its first record) and each has its own prepare position, so an adapter that does
 * arithmetic on positions, or compares only one half of them, is caught here as on a real server.
 */

export interface LogPosition {
  commit: bigint;
  prepare: bigint;
}

export interface ProposedEvent {
  id: string;
  type: string;
  contentType: string;
  data: Uint8Array;
  customMetadata: Uint8Array;
}

export interface LoggedEvent extends ProposedEvent, LogPosition {
  streamId: string;
  revision: bigint;
  /** .NET ticks (100 ns) since the Unix epoch, as the server puts them in the `created` metadata. */
  created: bigint;
}

export type Expected = 'any' | 'no_stream' | 'stream_exists' | bigint;

/** The stream's last revision, or -1 when it does not exist: the server's "current version". */
export type AppendOutcome =
  | { ok: true; currentVersion: bigint; position?: LogPosition }
  | { ok: false; currentVersion: bigint };

/** Fixed part of a prepare record on disk (flags, ids, timestamps, lengths), near the real layout. */
const RECORD_HEADER_BYTES = 91n;
/** A fresh database opens with its epoch and chaser records before the first event. */
const FIRST_EVENT_OFFSET = 1_024n;
const TICKS_PER_MS = 10_000n;

export function comparePositions(a: LogPosition, b: LogPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

export class TransactionLog {
  /** Every event in `$all` order. */
  readonly all: LoggedEvent[] = [];
  private readonly streams = new Map<string, LoggedEvent[]>();
  private nextOffset = FIRST_EVENT_OFFSET;
  private readonly listeners = new Set<() => void>();

  append(streamId: string, expected: Expected, events: ProposedEvent[]): AppendOutcome {
    const stream = this.streams.get(streamId) ?? [];
    const currentVersion = BigInt(stream.length) - 1n;
    if (!accepts(expected, currentVersion)) return { ok: false, currentVersion };
    if (events.length === 0) return { ok: true, currentVersion };
    const commit = this.nextOffset;
    const created = BigInt(Date.now()) * TICKS_PER_MS;
    for (const event of events) {
      const logged: LoggedEvent = { ...event, streamId, revision: BigInt(stream.length), created, commit, prepare: this.nextOffset };
      this.nextOffset += recordSize(logged);
      stream.push(logged);
      this.all.push(logged);
    }
    this.streams.set(streamId, stream);
    const last = stream[stream.length - 1]!;
    for (const listener of this.listeners) listener();
    return { ok: true, currentVersion: last.revision, position: { commit: last.commit, prepare: last.prepare } };
  }

  stream(streamId: string): readonly LoggedEvent[] | undefined {
    return this.streams.get(streamId);
  }

  /** Index in `all` of the first event at or after a position. */
  indexFrom(position: LogPosition): number {
    let low = 0;
    let high = this.all.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (comparePositions(this.all[mid]!, position) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** Called after every write that added events. */
  onAppended(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function accepts(expected: Expected, currentVersion: bigint): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'no_stream':
      return currentVersion === -1n;
    case 'stream_exists':
      return currentVersion >= 0n;
    default:
      return currentVersion === expected;
  }
}

function recordSize(event: LoggedEvent): bigint {
  const text = new TextEncoder();
  const variable = text.encode(event.streamId).length + text.encode(event.type).length + event.data.length + event.customMetadata.length;
  return RECORD_HEADER_BYTES + BigInt(variable);
}
