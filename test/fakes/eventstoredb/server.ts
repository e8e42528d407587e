import { randomUUID } from 'node:crypto';
import { Server, ServerCredentials, status } from '@grpc/grpc-js';
import { DEFAULT_MAX_APPEND_SIZE, appendHandler, batchAppendHandler } from './append.ts';
import { type ProposedEvent, TransactionLog } from './log.ts';
import { ServerFeaturesService, StreamsService, SupportedMethod, SupportedMethods } from './proto.ts';
import { readHandler } from './read.ts';

/**
 * An in-memory EventStoreDB for tests: the client's own gRPC service definitions served on
 * loopback, without TLS, answering what @eventstore/db-client asks of a single node. Connect with
 * `url` (an `esdb://…?tls=false` connection string); nothing else (gossip, projections, persistent
 * subscriptions, stream deletion) is served, and none of it is advertised.
 */
export interface EventStoreDbDouble {
  url: string;
  log: TransactionLog;
  /** Writes a `$statsCollected` event, as a real node does every 30 s, so `$all` ends on a system event. */
  collectStats(): void;
  close(): Promise<void>;
}

export interface DoubleOptions {
  /**
   * Advertise Streams.BatchAppend, as every server since 21.10 does (the client then appends through
   * it). Without it the client falls back to Streams.Append, as it does against older servers.
   */
  batchAppend?: boolean;
  /** The server's `MaxAppendSize` (1 MiB unless configured). */
  maxAppendSize?: number;
  /** A node coming back after a restart: the same log, on the same port. */
  restartOf?: EventStoreDbDouble;
}

const SERVER_VERSION = '24.10.0';
const STREAMS = 'event_store.client.streams.streams';
const FEATURES = 'event_store.client.server_features.serverfeatures';
const STATS_STREAM = '$stats-127.0.0.1:2113';

export async function startEventStoreDb(options: DoubleOptions = {}): Promise<EventStoreDbDouble> {
  const log = options.restartOf?.log ?? new TransactionLog();
  const collectStats = () => void log.append(STATS_STREAM, 'any', [systemEvent('$statsCollected', { 'proc-startTime': new Date().toISOString() })]);
  if (!options.restartOf) {
    // A fresh node writes system events of its own before any client does.
    log.append('$$$scavenges', 'any', [systemEvent('$metadata', { $maxAge: 2_592_000 })]);
    collectStats();
  }

  const maxAppendSize = options.maxAppendSize ?? DEFAULT_MAX_APPEND_SIZE;
  const server = new Server();
  server.addService(StreamsService, {
    read: readHandler(log),
    append: appendHandler(log, maxAppendSize),
    batchAppend: batchAppendHandler(log, maxAppendSize),
    delete: unimplemented,
    tombstone: unimplemented,
  });
  server.addService(ServerFeaturesService, {
    getSupportedMethods: (_call: unknown, reply: (error: null, methods: InstanceType<typeof SupportedMethods>) => void) =>
      reply(null, supportedMethods(options.batchAppend ?? true)),
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${options.restartOf ? new URL(options.restartOf.url).port : 0}`, ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  return {
    url: `esdb://127.0.0.1:${port}?tls=false`,
    log,
    collectStats,
    // Subscriptions stay open until their client leaves: cut them rather than wait.
    close: async () => server.forceShutdown(),
  };
}

/** What the server lists: lower-cased names, and the features the client checks for. */
function supportedMethods(batchAppend: boolean) {
  const method = (service: string, name: string, features: string[] = []) =>
    new SupportedMethod().setServiceName(service).setMethodName(name).setFeaturesList(features);
  const methods = [
    method(STREAMS, 'read', ['position', 'events']),
    method(STREAMS, 'append'),
    ...(batchAppend ? [method(STREAMS, 'batchappend', ['deadline_duration'])] : []),
    method(FEATURES, 'getsupportedmethods'),
  ];
  return new SupportedMethods().setEventStoreServerVersion(SERVER_VERSION).setMethodsList(methods);
}

function systemEvent(type: string, data: unknown): ProposedEvent {
  return { id: randomUUID(), type, contentType: 'application/json', data: Buffer.from(JSON.stringify(data)), customMetadata: new Uint8Array() };
}

function unimplemented(_call: unknown, reply: (error: { code: number; details: string }) => void) {
  reply({ code: status.UNIMPLEMENTED, details: 'the EventStoreDB double does not delete streams' });
}
