import { Metadata, type ServerDuplexStream, type ServerReadableStream, type sendUnaryData, status } from '@grpc/grpc-js';
import type { AppendOutcome, Expected, ProposedEvent, TransactionLog } from './log.ts';
import {
  AllStreamPosition,
  Any,
  BadRequestDetails,
  MaximumAppendSizeExceeded,
  AppendResp,
  type AppendRequest,
  type AppendResponse,
  BatchAppendResp,
  type BatchAppendRequest,
  type BatchAppendResponse,
  ProtobufEmpty,
  Status,
  Empty,
  WrongExpectedVersion,
} from './proto.ts';
import { BadRequest, proposedEvent, streamIdentifier, streamName } from './wire.ts';

/**
 * Streams.Append (one write per call, the outcome in the reply) and Streams.BatchAppend (many writes
 * on one long call, matched by correlation id, failures as google.rpc.Status with packed details),
 * answering exactly as the server's Streams.Append.cs and Streams.BatchAppend.cs do.
 */

/** google.rpc.Code values the server puts in a BatchAppend failure. */
const ALREADY_EXISTS = 6;
const INVALID_ARGUMENT = 3;

/** The server's `MaxAppendSize` default: one write may carry 1 MiB of events, by its own measure. */
export const DEFAULT_MAX_APPEND_SIZE = 1_048_576;

/** Event.SizeOnDisk: data, metadata, and the type at two bytes a character. */
function appendSize(events: ProposedEvent[]): number {
  return events.reduce((size, e) => size + e.data.length + e.customMetadata.length + e.type.length * 2, 0);
}

export function appendHandler(log: TransactionLog, maxAppendSize: number) {
  return (call: ServerReadableStream<AppendRequest, AppendResponse>, reply: sendUnaryData<AppendResponse>) => {
    let options: ReturnType<AppendRequest['getOptions']>;
    const events: ProposedEvent[] = [];
    let failure: Error | undefined;
    call.on('data', (request: AppendRequest) => {
      try {
        if (request.hasOptions()) options = request.getOptions();
        else events.push(proposedEvent(request.getProposedMessage()!));
      } catch (error) {
        failure ??= error as Error;
      }
    });
    call.on('end', () => {
      try {
        if (failure) throw failure;
        if (!options) throw new BadRequest('Required field Options not set.');
        if (appendSize(events) > maxAppendSize) return reply(maxAppendSizeExceeded(maxAppendSize));
        const expected = appendExpected(options);
        reply(null, appendResponse(log.append(streamName(options.getStreamIdentifier()), expected, events), expected));
      } catch (error) {
        reply({ code: error instanceof BadRequest ? status.INVALID_ARGUMENT : status.INTERNAL, details: (error as Error).message });
      }
    });
  };
}

/** RpcExceptions.MaxAppendSizeExceeded: the limit travels in the trailers, where the client reads it. */
function maxAppendSizeExceeded(maxAppendSize: number) {
  const metadata = new Metadata();
  metadata.set('exception', 'maximum-append-size-exceeded');
  metadata.set('maximum-append-size', String(maxAppendSize));
  return { code: status.INVALID_ARGUMENT, details: `Maximum Append Size of ${maxAppendSize} Exceeded.`, metadata };
}

type AppendOptions = NonNullable<ReturnType<AppendRequest['getOptions']>>;

function appendExpected(options: AppendOptions): Expected {
  if (options.hasRevision()) return BigInt(options.getRevision());
  if (options.hasNoStream()) return 'no_stream';
  if (options.hasStreamExists()) return 'stream_exists';
  return 'any';
}

function appendResponse(outcome: AppendOutcome, expected: Expected): AppendResponse {
  if (outcome.ok) {
    const success = new AppendResp.Success();
    if (outcome.currentVersion < 0n) success.setNoStream(new Empty());
    else success.setCurrentRevision(outcome.currentVersion.toString());
    if (outcome.position) {
      success.setPosition(new AppendResp.Position().setCommitPosition(outcome.position.commit.toString()).setPreparePosition(outcome.position.prepare.toString()));
    } else success.setNoPosition(new Empty());
    return new AppendResp().setSuccess(success);
  }
  // The server fills the current fields and their 20.6.0 twins, and the expected ones likewise; for
  // no_stream it puts ulong.MaxValue in the 20.6.0 field, which the client's generated message (a JS
  // number there) cannot hold, so that one twin is left out. The client reads only the new fields.
  const wrong = new AppendResp.WrongExpectedVersion();
  if (expected === 'any') wrong.setExpectedAny(new Empty()).setAny2060(new Empty());
  else if (expected === 'stream_exists') wrong.setExpectedStreamExists(new Empty()).setStreamExists2060(new Empty());
  else if (expected === 'no_stream') wrong.setExpectedNoStream(new Empty());
  else wrong.setExpectedRevision(expected.toString()).setExpectedRevision2060(Number(expected));
  if (outcome.currentVersion < 0n) wrong.setCurrentNoStream(new Empty()).setNoStream2060(new Empty());
  else wrong.setCurrentRevision(outcome.currentVersion.toString()).setCurrentRevision2060(Number(outcome.currentVersion));
  return new AppendResp().setWrongExpectedVersion(wrong);
}

interface PendingWrite {
  streamId: string;
  expected: Expected;
  events: ProposedEvent[];
}

export function batchAppendHandler(log: TransactionLog, maxAppendSize: number) {
  return (call: ServerDuplexStream<BatchAppendRequest, BatchAppendResponse>) => {
    const pending = new Map<string, PendingWrite>();
    call.on('data', (request: BatchAppendRequest) => {
      const correlation = request.getCorrelationId();
      const key = correlation?.getString() ?? '';
      const answer = (response: BatchAppendResponse, streamId: string) =>
        call.write(response.setCorrelationId(correlation).setStreamIdentifier(streamIdentifier(streamId)));
      let write = pending.get(key);
      try {
        if (request.hasOptions()) {
          const options = request.getOptions()!;
          write ??= { streamId: streamName(options.getStreamIdentifier()), expected: batchExpected(options), events: [] };
          pending.set(key, write);
        }
        if (!write) return;
        write.events.push(...request.getProposedMessagesList().map(proposedEvent));
        if (!request.getIsFinal()) return;
        pending.delete(key);
        if (appendSize(write.events) > maxAppendSize) return void answer(new BatchAppendResp().setError(tooLarge(maxAppendSize)), write.streamId);
        answer(batchResponse(log.append(write.streamId, write.expected, write.events), write.expected), write.streamId);
      } catch (error) {
        pending.delete(key);
        answer(new BatchAppendResp().setError(badRequest((error as Error).message)), write?.streamId ?? '');
      }
    });
    call.on('end', () => call.end());
  };
}

type BatchOptions = NonNullable<ReturnType<BatchAppendRequest['getOptions']>>;

function batchExpected(options: BatchOptions): Expected {
  if (options.hasStreamPosition()) return BigInt(options.getStreamPosition());
  if (options.hasNoStream()) return 'no_stream';
  if (options.hasStreamExists()) return 'stream_exists';
  if (options.hasAny()) return 'any';
  throw new BadRequest('Required field ExpectedStreamPosition not set.');
}

function batchResponse(outcome: AppendOutcome, expected: Expected): BatchAppendResponse {
  if (!outcome.ok) return new BatchAppendResp().setError(wrongExpectedVersion(outcome.currentVersion, expected));
  const success = new BatchAppendResp.Success();
  if (outcome.currentVersion < 0n) success.setNoStream(new ProtobufEmpty());
  else success.setCurrentRevision(outcome.currentVersion.toString());
  if (outcome.position) {
    success.setPosition(new AllStreamPosition().setCommitPosition(outcome.position.commit.toString()).setPreparePosition(outcome.position.prepare.toString()));
  } else success.setNoPosition(new ProtobufEmpty());
  return new BatchAppendResp().setSuccess(success);
}

function wrongExpectedVersion(currentVersion: bigint, expected: Expected) {
  const details = new WrongExpectedVersion();
  if (currentVersion < 0n) details.setCurrentNoStream(new ProtobufEmpty());
  else details.setCurrentStreamRevision(currentVersion.toString());
  if (expected === 'any') details.setExpectedAny(new ProtobufEmpty());
  else if (expected === 'no_stream') details.setExpectedNoStream(new ProtobufEmpty());
  else if (expected === 'stream_exists') details.setExpectedStreamExists(new ProtobufEmpty());
  else details.setExpectedStreamPosition(expected.toString());
  return rpcStatus(ALREADY_EXISTS, 'WrongExpectedVersion', details.serializeBinary(), 'event_store.client.WrongExpectedVersion');
}

function tooLarge(maxAppendSize: number) {
  const details = new MaximumAppendSizeExceeded().setMaxappendsize(maxAppendSize).serializeBinary();
  return rpcStatus(INVALID_ARGUMENT, 'MaximumAppendSizeExceeded', details, 'event_store.client.MaximumAppendSizeExceeded');
}

function badRequest(message: string) {
  return rpcStatus(INVALID_ARGUMENT, 'BadRequest', new BadRequestDetails().setMessage(message).serializeBinary(), 'event_store.client.BadRequest');
}

function rpcStatus(code: number, message: string, details: Uint8Array, typeName: string) {
  const packed = new Any();
  packed.pack(details, typeName);
  return new Status().setCode(code).setMessage(message).setDetails(packed);
}
