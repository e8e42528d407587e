import { randomUUID } from 'node:crypto';
import { type Consumer, Kafka, type LogEntry, Partitioners, type Producer, logLevel } from 'kafkajs';
import { log } from '../logger.ts';
import type { Bus, BusMessage, Topic } from './bus.ts';

const kafkaTopic = (topic: Topic) => `music-library.${topic}`;

/**
 * Partitions per topic, created by the service itself: a broker with topic auto-creation off (the
 * usual hosted setting) would otherwise refuse both publish and subscribe, and one with it on would
 * give a single partition, which only one worker of the group can read. The partitions of
 * `tasks.requested` bound how many workers share the tasks; cancels go to every process alike.
 */
const PARTITIONS: Record<Topic, number> = { 'tasks.requested': 12, 'tasks.cancel': 1 };

/**
 * A joining or leaving worker holds up the group until every member has rejoined, and a member
 * notices at its next heartbeat, which follows its current fetch: short fetch waits and heartbeats
 * keep that under a few seconds (kafkajs defaults: 5 s fetch wait, 3 s heartbeat, and a killed
 * worker's partitions idle for its 30 s session). An empty fetch a second per consumer is the cost.
 */
const CONSUMER_TIMING = { maxWaitTimeInMs: 1000, heartbeatInterval: 1000, sessionTimeout: 10_000 };

/** The bus across processes. Messages with the same key land on the same partition, in order. */
export function createKafkaBus(brokers: string[], clientId: string): Bus {
  const kafka = new Kafka({ brokers: brokers.map((b) => b.trim()).filter(Boolean), clientId, logCreator: () => toLogger });
  const consumers: Consumer[] = [];
  let producer: Promise<Producer> | undefined;
  let topics: Promise<void> | undefined;

  /**
   * Creates the bus's missing topics once per process. Only missing ones: a broker refuses a create
   * without the CREATE permission even for a topic that exists, and an operator may have made them.
   */
  function ensureTopics(): Promise<void> {
    topics ??= (async () => {
      const admin = kafka.admin();
      await admin.connect();
      try {
        const existing = new Set(await admin.listTopics());
        const missing = Object.entries(PARTITIONS)
          .map(([topic, numPartitions]) => ({ topic: kafkaTopic(topic as Topic), numPartitions }))
          .filter(({ topic }) => !existing.has(topic));
        // Another process may create them meanwhile: kafkajs takes TOPIC_ALREADY_EXISTS as done.
        if (missing.length > 0) await admin.createTopics({ topics: missing, waitForLeaders: true });
      } finally {
        await admin.disconnect();
      }
    })().catch((error: unknown) => {
      topics = undefined;
      throw error;
    });
    return topics;
  }

  function connectedProducer(): Promise<Producer> {
    producer ??= (async () => {
      await ensureTopics();
      const p = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner, allowAutoTopicCreation: false });
      await p.connect();
      return p;
    })().catch((error: unknown) => {
      // Forget the failed attempt so the next publish tries again.
      producer = undefined;
      throw error;
    });
    return producer;
  }

  return {
    async publish(topic, message) {
      const p = await connectedProducer();
      await p.send({ topic: kafkaTopic(topic), messages: [{ key: message.key, value: JSON.stringify(message.value) }] });
    },
    async subscribe(topic, mode, handler) {
      // Shared: one group for every process, so each message goes to one of them. Broadcast: a group
      // of its own per process, so each process sees everything published from now on.
      const groupId = mode === 'shared' ? `music-library-${topic}` : `music-library-${topic}-${clientId}-${randomUUID()}`;
      await ensureTopics();
      const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false, ...CONSUMER_TIMING });
      consumers.push(consumer);
      await consumer.connect();
      await consumer.subscribe({ topics: [kafkaTopic(topic)], fromBeginning: mode === 'shared' });
      await consumer.run({
        eachMessage: async ({ message }) => {
          const key = message.key?.toString() ?? '';
          // Logged and committed: a message that always fails must not stall the partition behind it.
          try {
            await handler({ key, value: JSON.parse(message.value?.toString() ?? '{}') as BusMessage['value'] });
          } catch (error) {
            log.error('bus: handler failed', { topic, key, error: String(error) });
          }
        },
      });
    },
    async close() {
      const p = producer;
      producer = undefined;
      await Promise.allSettled([...consumers.splice(0).map((c) => c.disconnect()), p?.then((x) => x.disconnect())]);
    },
  };
}

/** kafkajs logs through the service's JSON logger; its chatty info level goes to debug. */
function toLogger({ level, log: { message, ...fields } }: LogEntry): void {
  const write = level === logLevel.ERROR ? log.error : level === logLevel.WARN ? log.warn : log.debug;
  write(`kafka: ${message}`, fields);
}
