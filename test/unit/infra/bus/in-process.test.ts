import { expect } from 'chai';
import { createInProcessBus } from '../../../../infra/bus/in-process.ts';
import type { BusMessage } from '../../../../infra/bus/bus.ts';
import { log } from '../../../../infra/logger.ts';

/** Deliveries are scheduled with setImmediate; two turns let them and their handlers run. */
const settle = () => new Promise<void>((r) => setImmediate(() => setImmediate(r)));

const message = (key: string): BusMessage => ({ key, value: { taskId: key } });

describe('in-process bus', () => {
  it('hands each shared message to one subscriber, in turn', async () => {
    const bus = createInProcessBus();
    const seen: string[] = [];
    await bus.subscribe('tasks.requested', 'shared', async (m) => void seen.push(`a:${m.key}`));
    await bus.subscribe('tasks.requested', 'shared', async (m) => void seen.push(`b:${m.key}`));
    for (const key of ['1', '2', '3', '4']) await bus.publish('tasks.requested', message(key));
    await settle();
    expect(seen).to.deep.equal(['a:1', 'b:2', 'a:3', 'b:4']);
  });

  it('hands each broadcast message to every subscriber', async () => {
    const bus = createInProcessBus();
    const seen: string[] = [];
    await bus.subscribe('tasks.cancel', 'broadcast', async (m) => void seen.push(`a:${m.key}`));
    await bus.subscribe('tasks.cancel', 'broadcast', async (m) => void seen.push(`b:${m.key}`));
    await bus.publish('tasks.cancel', message('1'));
    await settle();
    expect(seen).to.have.members(['a:1', 'b:1']);
  });

  it('keeps topics apart', async () => {
    const bus = createInProcessBus();
    const seen: string[] = [];
    await bus.subscribe('tasks.requested', 'shared', async (m) => void seen.push(m.key));
    await bus.publish('tasks.cancel', message('x'));
    await settle();
    expect(seen).to.deep.equal([]);
  });

  it('delivers after publish returns, with a copy of the message', async () => {
    const bus = createInProcessBus();
    const seen: BusMessage[] = [];
    await bus.subscribe('tasks.requested', 'shared', async (m) => void seen.push(m));
    const sent = message('1');
    await bus.publish('tasks.requested', sent);
    expect(seen).to.deep.equal([]);
    sent.value.taskId = 'changed';
    await settle();
    expect(seen).to.deep.equal([message('1')]);
    expect(seen[0]).not.to.equal(sent);
  });

  it('logs a failing handler instead of throwing at the publisher', async () => {
    const bus = createInProcessBus();
    const errors: string[] = [];
    const original = log.error;
    log.error = (msg) => void errors.push(msg);
    try {
      await bus.subscribe('tasks.requested', 'shared', async () => {
        throw new Error('boom');
      });
      await bus.subscribe('tasks.cancel', 'broadcast', () => {
        throw new Error('sync boom');
      });
      await bus.publish('tasks.requested', message('1'));
      await bus.publish('tasks.cancel', message('2'));
      await settle();
    } finally {
      log.error = original;
    }
    expect(errors).to.deep.equal(['bus: handler failed', 'bus: handler failed']);
  });

  it('delivers nothing once closed', async () => {
    const bus = createInProcessBus();
    const seen: string[] = [];
    await bus.subscribe('tasks.requested', 'shared', async (m) => void seen.push(m.key));
    await bus.publish('tasks.requested', message('1'));
    await bus.close();
    await settle();
    expect(seen).to.deep.equal([]);
    let failure: unknown;
    await bus.publish('tasks.requested', message('2')).catch((error: unknown) => (failure = error));
    expect(failure).to.be.instanceOf(Error);
  });
});
