import { expect } from 'chai';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Bus, BusMessage } from '../../../../infra/bus/bus.ts';
import { createKafkaBus } from '../../../../infra/bus/kafka.ts';
import { type KafkaDouble, startKafkaDouble } from '../../../fakes/kafka/server.ts';
import { until } from '../../../support/until.ts';

const REQUESTED = 'music-library.tasks.requested';
const SHARED_GROUP = 'music-library-tasks.requested';

/** The Kafka bus as kafkajs drives it on the wire, against a one-node broker double on loopback. */
describe('Kafka bus (kafkajs against the broker double)', () => {
  let double: KafkaDouble;
  const buses: Bus[] = [];
  const bus = (name: string) => {
    const created = createKafkaBus([` ${double.broker} `], name);
    buses.push(created);
    return created;
  };

  before(async () => {
    double = await startKafkaDouble();
  });
  after(async () => {
    await Promise.all(buses.map((b) => b.close()));
    await double.close();
  });

  it('creates its topics itself on a broker that does not create them on first use', async () => {
    await bus('publisher').publish('tasks.cancel', { key: 'nobody', value: {} });
    expect(double.state.log.topics.get(REQUESTED)).to.have.length(12);
    expect(double.state.log.topics.get('music-library.tasks.cancel')).to.have.length(1);
  });

  it('leaves topics an operator made as they are, and asks to create none of them', async () => {
    const prepared = await startKafkaDouble();
    prepared.state.log.create(REQUESTED, 3);
    prepared.state.log.create('music-library.tasks.cancel', 1);
    const own = createKafkaBus([prepared.broker], 'prepared');
    try {
      await own.publish('tasks.requested', { key: 'k', value: {} });
      expect(prepared.state.log.topics.get(REQUESTED)).to.have.length(3);
      expect(prepared.requests.map((r) => r.name)).not.to.include('CreateTopics');
    } finally {
      await own.close();
      await prepared.close();
    }
  });

  it('hands each shared message to exactly one of two processes, and both take a share', async () => {
    const seen: string[] = [];
    const worker = (name: string) => async ({ key }: BusMessage) => void seen.push(`${name}:${key}`);
    await bus('worker-a').subscribe('tasks.requested', 'shared', worker('a'));
    await bus('worker-b').subscribe('tasks.requested', 'shared', worker('b'));
    await double.groupSettled(SHARED_GROUP, 2);
    const keys = Array.from({ length: 24 }, (_, n) => `task-${n}`);
    for (const key of keys) await buses[0]!.publish('tasks.requested', { key, value: { task_id: key } });
    await until(() => seen.length >= keys.length, 'every message handled');
    await sleep(300); // a second delivery would show up here
    expect(seen.map((s) => s.split(':')[1]).sort()).to.deep.equal([...keys].sort());
    expect(seen.filter((s) => s.startsWith('a:'))).not.to.be.empty;
    expect(seen.filter((s) => s.startsWith('b:'))).not.to.be.empty;
    expect(double.records(REQUESTED).map((r) => r.key?.toString()).sort()).to.deep.equal([...keys].sort());
  });

  it('hands each broadcast message to every subscribed process, value intact', async () => {
    const seen: string[] = [];
    await bus('listener-a').subscribe('tasks.cancel', 'broadcast', async (m) => void seen.push(`a:${m.key}:${String(m.value.task_id)}`));
    await bus('listener-b').subscribe('tasks.cancel', 'broadcast', async (m) => void seen.push(`b:${m.key}:${String(m.value.task_id)}`));
    // A new broadcast group starts at the log end, which it fixes at its first fetch.
    await sleep(300);
    await buses[0]!.publish('tasks.cancel', { key: 'k1', value: { task_id: 'é-01' } });
    await until(() => seen.length >= 2, 'both listeners');
    expect(seen).to.have.members(['a:k1:é-01', 'b:k1:é-01']);
  });

  it('speaks only APIs and versions the broker advertises', () => {
    expect(double.requests.filter((r) => !r.served)).to.deep.equal([]);
    expect(new Set(double.requests.map((r) => r.name))).to.include.all.keys('ApiVersions', 'Metadata', 'CreateTopics', 'Produce', 'Fetch', 'ListOffsets', 'FindCoordinator', 'JoinGroup', 'SyncGroup', 'Heartbeat', 'OffsetFetch', 'OffsetCommit');
  });
});
