import { crc32c } from './crc32c.ts';
import { ProtocolError, Reader } from './wire.ts';

/** One record of a batch, as a test wants to see it. */
export interface StoredRecord {
  offset: number;
  timestamp: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, string>;
}

/** A produced batch as the log keeps it: the client's bytes with the broker's base offset written in. */
export interface StoredBatch {
  baseOffset: number;
  lastOffset: number;
  bytes: Buffer;
  records: StoredRecord[];
}

// Fixed fields of a v2 batch, from the start of the batch (protocol guide, "Record Batch").
const LENGTH_AT = 8;
const MAGIC_AT = 16;
const CRC_AT = 17;
const ATTRIBUTES_AT = 21;
const COMPRESSION_MASK = 0x07;
const TRANSACTIONAL_OR_CONTROL = 0x30;
/** Base offset to record count: what a batch holds before its first record. */
const BATCH_HEADER_BYTES = 61;

/**
 * Splits a Produce request's record set into batches, checks each (magic 2, CRC-32C over attributes
 * to the end, record count and offset deltas) and places them in the log from `nextOffset`.
 * The double takes neither compression nor transactions: kafkajs sends neither by default.
 */
export function acceptBatches(recordSet: Buffer, nextOffset: number): StoredBatch[] {
  const batches: StoredBatch[] = [];
  let at = 0;
  while (at < recordSet.length) {
    if (recordSet.length - at < BATCH_HEADER_BYTES) throw new ProtocolError('truncated record batch');
    const size = LENGTH_AT + 4 + recordSet.readInt32BE(at + LENGTH_AT);
    const bytes = Buffer.from(recordSet.subarray(at, at + size));
    if (bytes.length !== size) throw new ProtocolError('truncated record batch');
    batches.push(acceptBatch(bytes, nextOffset));
    nextOffset = batches.at(-1)!.lastOffset + 1;
    at += size;
  }
  return batches;
}

function acceptBatch(bytes: Buffer, baseOffset: number): StoredBatch {
  if (bytes.readInt8(MAGIC_AT) !== 2) throw new ProtocolError(`record batch magic ${bytes.readInt8(MAGIC_AT)}, only 2 is served`);
  if (bytes.readUInt32BE(CRC_AT) !== crc32c(bytes.subarray(ATTRIBUTES_AT))) throw new ProtocolError('record batch CRC-32C mismatch');
  const reader = new Reader(bytes.subarray(ATTRIBUTES_AT));
  const attributes = reader.int16();
  if (attributes & COMPRESSION_MASK) throw new ProtocolError('compressed batches are not served by the double');
  if (attributes & TRANSACTIONAL_OR_CONTROL) throw new ProtocolError('transactional batches are not served by the double');
  const lastOffsetDelta = reader.int32();
  const baseTimestamp = reader.int64();
  reader.int64(); // max timestamp
  reader.int64(); // producer id
  reader.int16(); // producer epoch
  reader.int32(); // base sequence
  const count = reader.int32();
  if (count !== lastOffsetDelta + 1) throw new ProtocolError(`batch of ${count} records says its last offset delta is ${lastOffsetDelta}`);
  const records = Array.from({ length: count }, (_, index) => readRecord(reader, index, baseOffset, baseTimestamp));
  if (reader.remaining !== 0) throw new ProtocolError('bytes after the last record of a batch');
  // The base offset is outside the CRC: the broker assigns it, as a real one does.
  bytes.writeBigInt64BE(BigInt(baseOffset), 0);
  return { baseOffset, lastOffset: baseOffset + lastOffsetDelta, bytes, records };
}

function readRecord(batch: Reader, index: number, baseOffset: number, baseTimestamp: number): StoredRecord {
  const reader = new Reader(batch.take(batch.varint()));
  reader.int8(); // attributes, unused in v2
  const timestampDelta = reader.varint();
  const offsetDelta = reader.varint();
  if (offsetDelta !== index) throw new ProtocolError(`record ${index} has offset delta ${offsetDelta}`);
  const key = reader.varBytes();
  const value = reader.varBytes();
  const headers: Record<string, string> = {};
  for (let n = reader.varint(); n > 0; n--) {
    const name = reader.varBytes()?.toString('utf8') ?? '';
    headers[name] = reader.varBytes()?.toString('utf8') ?? '';
  }
  if (reader.remaining !== 0) throw new ProtocolError('record longer than its fields');
  return { offset: baseOffset + offsetDelta, timestamp: baseTimestamp + timestampDelta, key, value, headers };
}
