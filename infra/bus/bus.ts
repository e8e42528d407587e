/**
 * The message bus that spreads background tasks and task cancels across processes.
 * In-process by default; Kafka when KAFKA_BROKERS is set.
 */
export type Topic = 'tasks.requested' | 'tasks.cancel';

export interface BusMessage {
  key: string;
  value: Record<string, unknown>;
}

export type BusHandler = (message: BusMessage) => Promise<void>;

export interface Bus {
  publish(topic: Topic, message: BusMessage): Promise<void>;
  /**
   * `shared`: one consumer among all processes gets each message (work queue, tasks.requested);
   * `broadcast`: every subscribed process gets it (tasks.cancel).
   */
  subscribe(topic: Topic, mode: 'shared' | 'broadcast', handler: BusHandler): Promise<void>;
  close(): Promise<void>;
}
