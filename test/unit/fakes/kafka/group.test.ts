import { expect } from 'chai';
import { ErrorCode } from '../../../fakes/kafka/errors.ts';
import { Group, type JoinRequest } from '../../../fakes/kafka/group.ts';

let counter = 0;
const newGroup = () => new Group((clientId) => `${clientId}-${++counter}`);
const joining = (memberId = '', protocols = ['roundrobin']): JoinRequest => ({
  memberId,
  clientId: 'worker',
  sessionTimeoutMs: 1_000,
  rebalanceTimeoutMs: 5_000,
  protocolType: 'consumer',
  protocols: protocols.map((name) => ({ name, metadata: Buffer.from(name) })),
});

/** Two members joined and synced: the group is stable in generation 2. */
async function stableWithTwo() {
  const group = newGroup();
  const first = await group.join(joining());
  await group.sync(first.memberId, first.generation, new Map([[first.memberId, Buffer.from('all')]]));
  const secondJoin = group.join(joining());
  expect(group.heartbeat(first.memberId, first.generation)).to.equal(ErrorCode.REBALANCE_IN_PROGRESS);
  const [leader, second] = await Promise.all([group.join(joining(first.memberId)), secondJoin]);
  const assignments = new Map([[leader.memberId, Buffer.from('half a')], [second.memberId, Buffer.from('half b')]]);
  const [followerSync, leaderSync] = await Promise.all([group.sync(second.memberId, second.generation, new Map()), group.sync(leader.memberId, leader.generation, assignments)]);
  return { group, leader, second, followerSync, leaderSync };
}

describe('Kafka double: group coordinator', () => {
  it('completes a rebalance once every member rejoined, gives the leader every member and relays its assignment', async () => {
    const { group, leader, second, followerSync, leaderSync } = await stableWithTwo();
    expect(leader).to.include({ error: ErrorCode.NONE, generation: 2, protocol: 'roundrobin', leader: leader.memberId });
    expect(leader.members.map((m) => m.memberId)).to.have.members([leader.memberId, second.memberId]);
    expect(second.members).to.deep.equal([]);
    expect(followerSync.assignment.toString()).to.equal('half b');
    expect(leaderSync.assignment.toString()).to.equal('half a');
    expect(group.state).to.equal('Stable');
  });

  it('drops a member silent past its session timeout, and the survivor rejoins alone', async () => {
    const { group, leader, second } = await stableWithTwo();
    group.members.get(second.memberId)!.lastSeen -= 1_001;
    group.sweep(Date.now());
    expect(group.heartbeat(second.memberId, second.generation)).to.equal(ErrorCode.UNKNOWN_MEMBER_ID);
    expect(group.heartbeat(leader.memberId, leader.generation)).to.equal(ErrorCode.REBALANCE_IN_PROGRESS);
    const alone = await group.join(joining(leader.memberId));
    expect(alone).to.include({ error: ErrorCode.NONE, generation: 3, leader: leader.memberId });
    expect(alone.members.map((m) => m.memberId)).to.deep.equal([leader.memberId]);
  });

  it('ends a rebalance a member never rejoined once the rebalance timeout passes', async () => {
    const { group, leader, second } = await stableWithTwo();
    const rejoin = group.join(joining(leader.memberId));
    group.sweep(Date.now() + 5_001);
    const alone = await rejoin;
    expect(alone).to.include({ error: ErrorCode.NONE, generation: 3, leader: leader.memberId });
    expect(group.heartbeat(second.memberId, 2)).to.equal(ErrorCode.UNKNOWN_MEMBER_ID);
  });

  it('refuses stale generations and members whose protocols no member shares', async () => {
    const { group, leader } = await stableWithTwo();
    expect(group.heartbeat(leader.memberId, 1)).to.equal(ErrorCode.ILLEGAL_GENERATION);
    expect(group.commitError(leader.memberId, 1)).to.equal(ErrorCode.ILLEGAL_GENERATION);
    expect((await group.join(joining('', ['sticky']))).error).to.equal(ErrorCode.INCONSISTENT_GROUP_PROTOCOL);
  });
});
