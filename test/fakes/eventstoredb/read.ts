import { randomUUID } from 'node:crypto';
import { type ServerWritableStream, status } from '@grpc/grpc-js';
import { eventFilter, type EventFilter } from './filter.ts';
import { type LogPosition, type LoggedEvent, type TransactionLog, comparePositions } from './log.ts';
import { ReadReq, ReadResp, type ReadRequest, type ReadResponse } from './proto.ts';
import { BadRequest, eventResponse, streamIdentifier, streamName } from './wire.ts';

/** Streams.Read: reads of one stream or of `$all`, and catch-up subscriptions to `$all`. */

type ReadCall = ServerWritableStream<ReadRequest, ReadResponse>;
type ReadOptions = NonNullable<ReturnType<ReadRequest['getOptions']>>;
type From = 'start' | 'end' | LogPosition;

const { ReadDirection } = ReadReq.Options;

export function readHandler(log: TransactionLog) {
  return (call: ReadCall) => {
    read(log, call).catch((error: unknown) => {
      call.emit('error', { code: error instanceof BadRequest ? status.INVALID_ARGUMENT : status.INTERNAL, details: (error as Error).message });
    });
  };
}

async function read(log: TransactionLog, call: ReadCall): Promise<void> {
  const options = call.request.getOptions();
  if (!options) throw new BadRequest('Required field Options not set.');
  const structuredIds = options.getUuidOption()?.hasStructured() ?? false;
  const filter = eventFilter(options);
  if (options.hasSubscription()) {
    if (!options.hasAll()) return refuse(call, 'subscriptions to a single stream');
    return subscribeToAll(log, call, allFrom(options), filter, structuredIds);
  }
  const count = options.hasCount() ? BigInt(options.getCount()) : 0n;
  const backwards = options.getReadDirection() === ReadDirection.BACKWARDS;
  if (options.hasStream()) {
    const name = streamName(options.getStream()!.getStreamIdentifier());
    const stream = log.stream(name);
    if (!stream) {
      const notFound = new ReadResp.StreamNotFound().setStreamIdentifier(streamIdentifier(name));
      await send(call, new ReadResp().setStreamNotFound(notFound));
      return void call.end();
    }
    for (const event of take(streamSlice(stream, options, backwards), count)) await send(call, eventResponse(event, structuredIds));
    return void call.end();
  }
  const events = allSlice(log, allFrom(options), backwards).filter((e) => !filter || filter.matches(e));
  for (const event of take(events, count)) await send(call, eventResponse(event, structuredIds));
  call.end();
}

function allFrom(options: ReadOptions): From {
  const all = options.getAll()!;
  if (all.hasStart()) return 'start';
  if (all.hasEnd()) return 'end';
  const position = all.getPosition()!;
  return { commit: BigInt(position.getCommitPosition()), prepare: BigInt(position.getPreparePosition()) };
}

/** Forwards from a revision includes it; backwards from one includes it too, then goes down. */
function streamSlice(stream: readonly LoggedEvent[], options: ReadOptions, backwards: boolean): LoggedEvent[] {
  const from = options.getStream()!;
  const last = stream.length - 1;
  if (backwards) {
    const top = from.hasRevision() ? Math.min(Number(from.getRevision()), last) : from.hasStart() ? 0 : last;
    return stream.slice(0, top + 1).reverse();
  }
  const bottom = from.hasRevision() ? Number(from.getRevision()) : from.hasEnd() ? stream.length : 0;
  return stream.slice(bottom);
}

/** `$all` forwards from a position includes the event there; backwards takes what lies before it. */
function allSlice(log: TransactionLog, from: From, backwards: boolean): LoggedEvent[] {
  const at = from === 'start' ? 0 : from === 'end' ? log.all.length : log.indexFrom(from);
  return backwards ? log.all.slice(0, at).reverse() : log.all.slice(at);
}

function take<T>(items: T[], count: bigint): T[] {
  return count >= BigInt(items.length) ? items : items.slice(0, Number(count));
}

/**
 * Confirms, replays what matches after the start position (exclusive), says it caught up, then
 * sends each new event as it is written, until the client cancels. A filtered subscription also
 * reports checkpoints: how far it searched, so a client can save progress through skipped events.
 */
async function subscribeToAll(log: TransactionLog, call: ReadCall, from: From, filter: EventFilter | undefined, structuredIds: boolean) {
  let wake = () => {};
  const stopWaiting = log.onAppended(() => wake());
  const ended = new Promise<void>((resolve) => call.once('cancelled', resolve).once('close', resolve));
  let open = true;
  void ended.then(() => {
    open = false;
    wake();
  });
  try {
    await send(call, new ReadResp().setConfirmation(new ReadResp.SubscriptionConfirmation().setSubscriptionId(randomUUID())));
    let next = firstAfter(log, from);
    let searched = 0;
    let caughtUp = false;
    while (open) {
      const event = log.all[next];
      if (event) {
        next++;
        if (!filter || filter.matches(event)) await send(call, eventResponse(event, structuredIds));
        if (filter && ++searched % filter.checkpointEvery === 0) await send(call, checkpoint(event));
        continue;
      }
      if (!caughtUp) {
        caughtUp = true;
        await send(call, new ReadResp().setCaughtUp(new ReadResp.CaughtUp()));
        // Events written while that went out are in the log already: look again before waiting.
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    stopWaiting();
  }
}

function firstAfter(log: TransactionLog, from: From): number {
  if (from === 'start') return 0;
  if (from === 'end') return log.all.length;
  const at = log.indexFrom(from);
  const there = log.all[at];
  return there && comparePositions(there, from) === 0 ? at + 1 : at;
}

function checkpoint(event: LoggedEvent): ReadResponse {
  const position = new ReadResp.Checkpoint().setCommitPosition(event.commit.toString()).setPreparePosition(event.prepare.toString());
  return new ReadResp().setCheckpoint(position);
}

/** Waits for the client to take what is buffered; a gone client ends the wait too. */
function send(call: ReadCall, message: ReadResponse): Promise<void> {
  if (call.destroyed || call.cancelled) return Promise.resolve();
  if (call.write(message)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      call.off('drain', done).off('close', done);
      resolve();
    };
    call.on('drain', done).on('close', done);
  });
}

function refuse(call: ReadCall, what: string): void {
  call.emit('error', { code: status.UNIMPLEMENTED, details: `the EventStoreDB double does not serve ${what}` });
}
