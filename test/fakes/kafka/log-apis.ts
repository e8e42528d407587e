import { ErrorCode } from './errors.ts';
import { ProtocolError, type Reader, Writer } from './wire.ts';
import { NODE_ID, type BrokerState } from './state.ts';

const LEGAL_TOPIC = /^[a-zA-Z0-9._-]{1,249}$/;

/** Metadata v4: the one broker leads every partition; unknown topics are created only when allowed. */
export function metadata(r: Reader, broker: BrokerState): Writer {
  const requested = r.nullableArray((x) => x.string());
  const allowCreate = r.boolean();
  const names = requested ?? [...broker.log.topics.keys()];
  for (const name of names) {
    if (!broker.log.topics.has(name) && allowCreate && broker.options.autoCreateTopics && LEGAL_TOPIC.test(name)) broker.log.create(name, broker.options.defaultPartitions);
  }
  return new Writer()
    .int32(0)
    .array([NODE_ID], (w, id) => w.int32(id).string(broker.host).int32(broker.port).nullableString(null))
    .nullableString('music-library-kafka-double')
    .int32(NODE_ID)
    .array(names, (w, name) => {
      const partitions = broker.log.topics.get(name);
      w.int16(partitions ? ErrorCode.NONE : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION).string(name).boolean(false);
      w.array((partitions ?? []).map((_, index) => index), (p, index) =>
        p.int16(ErrorCode.NONE).int32(index).int32(NODE_ID).array([NODE_ID], (x, id) => x.int32(id)).array([NODE_ID], (x, id) => x.int32(id)),
      );
    });
}

/** CreateTopics v2: partitions -1 is the broker default, replication above 1 cannot be met by one broker. */
export function createTopics(r: Reader, broker: BrokerState): Writer {
  const topics = r.array((x) => ({
    name: x.string(),
    partitions: x.int32(),
    replication: x.int16(),
    assignments: x.array((a) => ({ partition: a.int32(), brokers: a.array((b) => b.int32()) })),
    configs: x.array((c) => ({ name: c.string(), value: c.nullableString() })),
  }));
  r.int32(); // timeout
  const validateOnly = r.boolean();
  const outcomes = topics.map((t) => {
    const partitions = t.assignments.length > 0 ? t.assignments.length : t.partitions === -1 ? broker.options.defaultPartitions : t.partitions;
    const outcome = (error: number, message: string | null = null) => ({ name: t.name, error, message });
    if (!LEGAL_TOPIC.test(t.name)) return outcome(ErrorCode.INVALID_TOPIC_EXCEPTION, `illegal topic name ${t.name}`);
    if (broker.log.topics.has(t.name)) return outcome(ErrorCode.TOPIC_ALREADY_EXISTS, `Topic '${t.name}' already exists.`);
    if (partitions < 1) return outcome(ErrorCode.INVALID_PARTITIONS, 'Number of partitions must be larger than 0.');
    if (t.replication !== -1 && t.replication !== 1) return outcome(ErrorCode.INVALID_REPLICATION_FACTOR, 'Replication factor: larger than available brokers: 1.');
    if (!validateOnly) broker.log.create(t.name, partitions);
    return outcome(ErrorCode.NONE);
  });
  return new Writer().int32(0).array(outcomes, (w, o) => w.string(o.name).int16(o.error).nullableString(o.message));
}

/** Produce v3: each partition's record set is checked and appended; acks 0 gets no response at all. */
export function produce(r: Reader, broker: BrokerState): Writer | null {
  r.nullableString(); // transactional id: the double takes no transactions
  const acks = r.int16();
  r.int32(); // timeout
  const topics = r.array((t) => ({ name: t.string(), partitions: t.array((p) => ({ index: p.int32(), records: p.nullableBytes() })) }));
  const answered = topics.map(({ name, partitions }) => ({
    name,
    partitions: partitions.map(({ index, records }) => {
      if (!broker.log.partition(name, index)) return { index, error: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, base: -1 };
      try {
        return { index, error: ErrorCode.NONE, base: broker.log.append(name, index, records ?? Buffer.alloc(0)) };
      } catch (error) {
        if (error instanceof ProtocolError) return { index, error: ErrorCode.CORRUPT_MESSAGE, base: -1 };
        throw error;
      }
    }),
  }));
  if (acks === 0) return null;
  return new Writer()
    .array(answered, (w, t) => w.string(t.name).array(t.partitions, (p, x) => p.int32(x.index).int16(x.error).int64(x.base).int64(-1)))
    .int32(0);
}

/** Fetch v4: held until min_bytes are there or max_wait passes (a long poll), as a broker does. */
export async function fetch(r: Reader, broker: BrokerState): Promise<Writer> {
  r.int32(); // replica id
  const maxWaitMs = r.int32();
  const minBytes = r.int32();
  r.int32(); // max bytes: each partition is bounded by its own limit below
  r.int8(); // isolation level: nothing is transactional here
  const topics = r.array((t) => ({ name: t.string(), partitions: t.array((p) => ({ index: p.int32(), offset: p.int64(), maxBytes: p.int32() })) }));
  const deadline = Date.now() + maxWaitMs;
  for (;;) {
    const answer = topics.map(({ name, partitions }) => ({ name, partitions: partitions.map((p) => readPartition(broker, name, p)) }));
    const bytes = answer.reduce((sum, t) => sum + t.partitions.reduce((s, p) => s + p.records.length, 0), 0);
    const errors = answer.some((t) => t.partitions.some((p) => p.error !== ErrorCode.NONE));
    const left = deadline - Date.now();
    if (bytes >= minBytes || errors || left <= 0 || broker.closed) {
      return new Writer().int32(0).array(answer, (w, t) =>
        w.string(t.name).array(t.partitions, (pw, p) => pw.int32(p.index).int16(p.error).int64(p.highWatermark).int64(p.highWatermark).array([], () => {}).nullableBytes(p.records)),
      );
    }
    await broker.log.nextAppend(left);
  }
}

function readPartition(broker: BrokerState, topic: string, request: { index: number; offset: number; maxBytes: number }) {
  const partition = broker.log.partition(topic, request.index);
  const none = { index: request.index, highWatermark: -1, records: Buffer.alloc(0) };
  if (!partition) return { ...none, error: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION };
  const highWatermark = partition.logEndOffset;
  if (request.offset < 0 || request.offset > highWatermark) return { ...none, highWatermark, error: ErrorCode.OFFSET_OUT_OF_RANGE };
  return { index: request.index, highWatermark, records: partition.read(request.offset, request.maxBytes), error: ErrorCode.NONE };
}

const LATEST = -1;
const EARLIEST = -2;

/** ListOffsets v1: -2 is the log start, -1 the log end, any other time the first record at or after it. */
export function listOffsets(r: Reader, broker: BrokerState): Writer {
  r.int32(); // replica id
  const topics = r.array((t) => ({ name: t.string(), partitions: t.array((p) => ({ index: p.int32(), timestamp: p.int64() })) }));
  return new Writer().array(topics, (w, t) =>
    w.string(t.name).array(t.partitions, (pw, { index, timestamp }) => {
      const partition = broker.log.partition(t.name, index);
      if (!partition) return void pw.int32(index).int16(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION).int64(-1).int64(-1);
      const offset = timestamp === LATEST ? partition.logEndOffset : timestamp === EARLIEST ? 0 : partition.offsetForTime(timestamp);
      pw.int32(index).int16(ErrorCode.NONE).int64(-1).int64(offset);
    }),
  );
}
