import { ErrorCode } from './errors.ts';
import { type Reader, Writer } from './wire.ts';
import { NODE_ID, type BrokerState } from './state.ts';

/** FindCoordinator v1: the one broker coordinates every group. */
export function findCoordinator(r: Reader, broker: BrokerState): Writer {
  r.string(); // group id
  r.int8(); // key type: group or transaction, the answer is the same
  return new Writer().int32(0).int16(ErrorCode.NONE).nullableString(null).int32(NODE_ID).string(broker.host).int32(broker.port);
}

/** JoinGroup v2: answered once the rebalance completes, so the response may wait on other members. */
export async function joinGroup(r: Reader, broker: BrokerState, clientId: string): Promise<Writer> {
  const groupId = r.string();
  const sessionTimeoutMs = r.int32();
  const rebalanceTimeoutMs = r.int32();
  const memberId = r.string();
  const protocolType = r.string();
  const protocols = r.array((p) => ({ name: p.string(), metadata: p.bytes() }));
  const result = await broker.group(groupId).join({ memberId, clientId, sessionTimeoutMs, rebalanceTimeoutMs, protocolType, protocols });
  return new Writer()
    .int32(0)
    .int16(result.error)
    .int32(result.generation)
    .string(result.protocol)
    .string(result.leader)
    .string(result.memberId)
    .array(result.members, (w, m) => w.string(m.memberId).nullableBytes(m.metadata));
}

/** SyncGroup v1: the leader's assignments are relayed, each member gets its own. */
export async function syncGroup(r: Reader, broker: BrokerState): Promise<Writer> {
  const groupId = r.string();
  const generation = r.int32();
  const memberId = r.string();
  const assignments = new Map(r.array((a) => [a.string(), a.bytes()] as const));
  const result = await broker.group(groupId).sync(memberId, generation, assignments);
  return new Writer().int32(0).int16(result.error).nullableBytes(result.assignment);
}

/** Heartbeat v1. */
export function heartbeat(r: Reader, broker: BrokerState): Writer {
  const groupId = r.string();
  const generation = r.int32();
  const memberId = r.string();
  return new Writer().int32(0).int16(broker.group(groupId).heartbeat(memberId, generation));
}

/** LeaveGroup v1. */
export function leaveGroup(r: Reader, broker: BrokerState): Writer {
  const groupId = r.string();
  const memberId = r.string();
  return new Writer().int32(0).int16(broker.group(groupId).leave(memberId));
}

/** OffsetCommit v2: stored per group and partition when the member belongs to the current generation. */
export function offsetCommit(r: Reader, broker: BrokerState): Writer {
  const group = broker.group(r.string());
  const generation = r.int32();
  const memberId = r.string();
  r.int64(); // retention: the double keeps offsets as long as it runs
  const topics = r.array((t) => ({ name: t.string(), partitions: t.array((p) => ({ index: p.int32(), offset: p.int64(), metadata: p.nullableString() })) }));
  const error = group.commitError(memberId, generation);
  return new Writer().array(topics, (w, t) =>
    w.string(t.name).array(t.partitions, (pw, p) => {
      const known = broker.log.partition(t.name, p.index) !== undefined;
      if (error === ErrorCode.NONE && known) group.offsets.set(offsetKey(t.name, p.index), { offset: p.offset, metadata: p.metadata });
      pw.int32(p.index).int16(known ? error : ErrorCode.UNKNOWN_TOPIC_OR_PARTITION);
    }),
  );
}

/** OffsetFetch v1: -1 for a partition the group never committed. */
export function offsetFetch(r: Reader, broker: BrokerState): Writer {
  const group = broker.group(r.string());
  const topics = r.array((t) => ({ name: t.string(), partitions: t.array((p) => p.int32()) }));
  return new Writer().array(topics, (w, t) =>
    w.string(t.name).array(t.partitions, (pw, index) => {
      const committed = group.offsets.get(offsetKey(t.name, index));
      pw.int32(index).int64(committed?.offset ?? -1).nullableString(committed?.metadata ?? '').int16(ErrorCode.NONE);
    }),
  );
}

const offsetKey = (topic: string, partition: number) => `${topic}\u0000${partition}`;
