import { randomUUID } from 'node:crypto';
import { type Consumer, Kafka, type LogEntry, Partitioners, type Producer, logLevel } from 'kafkajs';
import { log } from '../logger.ts';
import type { Bus, BusMessage, Topic } from './bus.ts';

const kafkaTopic = (topic: Topic) => `music-library.${topic}`;

/** The bus across processes. Messages with the same key land on the same partition, in order. */
export function createKafkaBus(brokers: string[], clientId: string): Bus {
  const kafka = new Kafka({ brokers, clientId, logCreator: () => toLogger });
  const consumers: Consumer[] = [];
  let producer: Promise<Producer> | undefined;

  function connectedProducer(): Promise<Producer> {
    producer ??= (async () => {
      const p = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
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
      const consumer = kafka.consumer({ groupId });
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
