import { type Socket, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { ErrorCode } from './errors.ts';
import { findCoordinator, heartbeat, joinGroup, leaveGroup, offsetCommit, offsetFetch, syncGroup } from './group-apis.ts';
import { createTopics, fetch, listOffsets, metadata, produce } from './log-apis.ts';
import type { StoredRecord } from './records.ts';
import { BrokerState } from './state.ts';
import { until } from '../../support/until.ts';
import { ProtocolError, Reader, Writer } from './wire.ts';

type Handler = (r: Reader, broker: BrokerState, clientId: string) => Writer | null | Promise<Writer | null>;

/**
 * The APIs the double serves, each at the one version it implements. ApiVersions advertises exactly
 * these, so the client negotiates down to them (kafkajs takes the lower of its best and the broker's).
 * All are from before flexible versions, so headers carry no tagged fields.
 */
const APIS = new Map<number, { name: string; version: number; handle: Handler }>([
  [0, { name: 'Produce', version: 3, handle: produce }],
  [1, { name: 'Fetch', version: 4, handle: fetch }],
  [2, { name: 'ListOffsets', version: 1, handle: listOffsets }],
  [3, { name: 'Metadata', version: 4, handle: metadata }],
  [8, { name: 'OffsetCommit', version: 2, handle: offsetCommit }],
  [9, { name: 'OffsetFetch', version: 1, handle: offsetFetch }],
  [10, { name: 'FindCoordinator', version: 1, handle: findCoordinator }],
  [11, { name: 'JoinGroup', version: 2, handle: joinGroup }],
  [12, { name: 'Heartbeat', version: 1, handle: heartbeat }],
  [13, { name: 'LeaveGroup', version: 1, handle: leaveGroup }],
  [14, { name: 'SyncGroup', version: 1, handle: syncGroup }],
  [19, { name: 'CreateTopics', version: 2, handle: createTopics }],
]);
const API_VERSIONS = { key: 18, min: 0, max: 2 };

export interface ReceivedRequest {
  apiKey: number;
  name: string;
  version: number;
  clientId: string | null;
  /** False for an API or version the double does not serve: it closed the connection, as a broker would. */
  served: boolean;
}

export interface KafkaDouble {
  /** `host:port`, the value of KAFKA_BROKERS. */
  broker: string;
  /** Every request received, in order: which APIs and versions the client really uses. */
  requests: ReceivedRequest[];
  state: BrokerState;
  records(topic: string): StoredRecord[];
  /** Resolves once the group has settled (stable) with this many members; fails after `timeoutMs`. */
  groupSettled(groupId: string, members: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A one-node Kafka broker on loopback, in memory: node 0, leader of every partition and coordinator
 * of every group. Topics are not created on first use unless `autoCreateTopics` (a hosted broker
 * usually has it off).
 */
export async function startKafkaDouble(options: { autoCreateTopics?: boolean; defaultPartitions?: number } = {}): Promise<KafkaDouble> {
  const state = new BrokerState({ autoCreateTopics: options.autoCreateTopics ?? false, defaultPartitions: options.defaultPartitions ?? 1 });
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    serveConnection(socket, state, requests);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  state.port = (server.address() as AddressInfo).port;
  return {
    broker: `${state.host}:${state.port}`,
    requests,
    state,
    records: (topic) => state.log.records(topic),
    groupSettled: (groupId, members, timeoutMs) =>
      until(() => state.groups.get(groupId)?.state === 'Stable' && state.groups.get(groupId)?.members.size === members, `group ${groupId} stable with ${members} members`, timeoutMs),
    async close() {
      state.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Frames are an int32 size then the request; one request is handled at a time per connection, so responses keep request order. */
function serveConnection(socket: Socket, state: BrokerState, requests: ReceivedRequest[]): void {
  let pending = Buffer.alloc(0);
  let queue = Promise.resolve();
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
      const frame = pending.subarray(4, 4 + pending.readInt32BE(0));
      pending = pending.subarray(4 + frame.length);
      queue = queue.then(() => answer(frame, state, requests)).then(
        (response) => {
          if (response && !socket.destroyed) socket.write(Buffer.concat([sizeOf(response), response]));
        },
        () => void socket.destroy(),
      );
    }
  });
}

async function answer(frame: Buffer, state: BrokerState, requests: ReceivedRequest[]): Promise<Buffer | null> {
  const r = new Reader(frame);
  const apiKey = r.int16();
  const version = r.int16();
  const correlationId = r.int32();
  const clientId = r.nullableString();
  const api = APIS.get(apiKey);
  const served = apiKey === API_VERSIONS.key || api?.version === version;
  requests.push({ apiKey, name: api?.name ?? (apiKey === API_VERSIONS.key ? 'ApiVersions' : `unknown(${apiKey})`), version, clientId, served });
  const header = new Writer().int32(correlationId);
  if (apiKey === API_VERSIONS.key) return header.raw(apiVersions(version).toBuffer()).toBuffer();
  if (!served) throw new ProtocolError(`api ${apiKey} v${version} is not served`);
  const body = await api!.handle(r, state, clientId ?? '');
  return body && header.raw(body.toBuffer()).toBuffer();
}

/** ApiVersions v0–v2; a newer version is answered in v0 form with UNSUPPORTED_VERSION, as the protocol guide says. */
function apiVersions(version: number): Writer {
  const supported = version <= API_VERSIONS.max;
  const ranges = [{ key: API_VERSIONS.key, min: API_VERSIONS.min, max: API_VERSIONS.max }, ...[...APIS].map(([key, api]) => ({ key, min: api.version, max: api.version }))];
  const w = new Writer().int16(supported ? ErrorCode.NONE : ErrorCode.UNSUPPORTED_VERSION).array(ranges, (x, a) => x.int16(a.key).int16(a.min).int16(a.max));
  return supported && version >= 1 ? w.int32(0) : w;
}

function sizeOf(payload: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeInt32BE(payload.length);
  return size;
}
