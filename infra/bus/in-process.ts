import { log } from '../logger.ts';
import type { Bus, BusHandler, BusMessage, Topic } from './bus.ts';

interface TopicSubscribers {
  shared: BusHandler[];
  /** Index of the shared subscriber that gets the next message. */
  turn: number;
  broadcast: BusHandler[];
}

/** The single-process bus: same delivery semantics as the Kafka one, without a broker. */
export function createInProcessBus(): Bus {
  const topics = new Map<Topic, TopicSubscribers>();
  let closed = false;

  function subscribersOf(topic: Topic): TopicSubscribers {
    let subscribers = topics.get(topic);
    if (!subscribers) topics.set(topic, (subscribers = { shared: [], turn: 0, broadcast: [] }));
    return subscribers;
  }

  // Asynchronous so a publisher never runs (or waits for) a handler inside its own call.
  function deliver(topic: Topic, handler: BusHandler, encoded: string): void {
    setImmediate(() => {
      if (closed) return;
      const message = JSON.parse(encoded) as BusMessage;
      Promise.resolve()
        .then(() => handler(message))
        .catch((error: unknown) => log.error('bus: handler failed', { topic, key: message.key, error: String(error) }));
    });
  }

  return {
    async publish(topic, message) {
      if (closed) throw new Error('bus closed');
      // Encoded now, as Kafka would: a later mutation by the publisher, or a value JSON cannot carry,
      // shows up here rather than in a handler; each handler then gets its own copy.
      const encoded = JSON.stringify(message);
      const subscribers = subscribersOf(topic);
      const { shared } = subscribers;
      // Nobody listening in this process means nobody anywhere: the message is dropped.
      if (shared.length > 0) deliver(topic, shared[subscribers.turn++ % shared.length]!, encoded);
      for (const handler of subscribers.broadcast) deliver(topic, handler, encoded);
    },
    async subscribe(topic, mode, handler) {
      if (closed) throw new Error('bus closed');
      subscribersOf(topic)[mode].push(handler);
    },
    async close() {
      closed = true;
      topics.clear();
    },
  };
}
