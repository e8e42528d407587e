import { ErrorCode } from './errors.ts';

export interface JoinRequest {
  memberId: string;
  clientId: string;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  protocolType: string;
  protocols: { name: string; metadata: Buffer }[];
}

export interface JoinResult {
  error: number;
  generation: number;
  protocol: string;
  leader: string;
  memberId: string;
  /** Every member's metadata for the leader, which computes the assignment; empty for the others. */
  members: { memberId: string; metadata: Buffer }[];
}

export interface SyncResult {
  error: number;
  assignment: Buffer;
}

interface Member extends JoinRequest {
  assignment: Buffer;
  lastSeen: number;
  joining?: (result: JoinResult) => void;
  syncing?: (result: SyncResult) => void;
}

type State = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable';

/**
 * One consumer group's membership, as the classic group protocol runs it: a join opens a rebalance
 * that completes once every known member has rejoined (or the rebalance timeout drops the rest);
 * the leader gets everyone's metadata and hands back the assignment at sync, which the broker only
 * relays. Members that stop heartbeating past their session timeout are dropped.
 */
export class Group {
  state: State = 'Empty';
  generation = 0;
  leader = '';
  private protocol = '';
  private preparingSince = 0;
  readonly members = new Map<string, Member>();
  readonly offsets = new Map<string, { offset: number; metadata: string | null }>();

  constructor(private readonly newMemberId: (clientId: string) => string) {}

  join(request: JoinRequest): Promise<JoinResult> {
    const known = this.members.get(request.memberId);
    if (request.memberId !== '' && !known) return Promise.resolve(failedJoin(ErrorCode.UNKNOWN_MEMBER_ID, request.memberId));
    const others = [...this.members.values()].filter((m) => m.memberId !== request.memberId);
    if (others.length > 0 && (others[0]!.protocolType !== request.protocolType || !request.protocols.some((p) => others.every((m) => supports(m, p.name))))) {
      return Promise.resolve(failedJoin(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, request.memberId));
    }
    const memberId = known?.memberId ?? this.newMemberId(request.clientId);
    const member: Member = { ...request, memberId, assignment: Buffer.alloc(0), lastSeen: Date.now() };
    this.members.set(memberId, member);
    return new Promise((resolve) => {
      member.joining = resolve;
      this.prepareRebalance();
      this.completeJoinIfReady();
    });
  }

  sync(memberId: string, generation: number, assignments: Map<string, Buffer>): Promise<SyncResult> {
    const member = this.members.get(memberId);
    const refused = (error: number) => Promise.resolve({ error, assignment: Buffer.alloc(0) });
    if (!member) return refused(ErrorCode.UNKNOWN_MEMBER_ID);
    if (generation !== this.generation) return refused(ErrorCode.ILLEGAL_GENERATION);
    if (this.state === 'PreparingRebalance') return refused(ErrorCode.REBALANCE_IN_PROGRESS);
    member.lastSeen = Date.now();
    if (this.state === 'Stable') return Promise.resolve({ error: ErrorCode.NONE, assignment: member.assignment });
    return new Promise((resolve) => {
      member.syncing = resolve;
      if (memberId === this.leader) this.completeSync(assignments);
    });
  }

  heartbeat(memberId: string, generation: number): number {
    const member = this.members.get(memberId);
    if (!member) return ErrorCode.UNKNOWN_MEMBER_ID;
    member.lastSeen = Date.now();
    if (this.state === 'PreparingRebalance') return ErrorCode.REBALANCE_IN_PROGRESS;
    if (generation !== this.generation) return ErrorCode.ILLEGAL_GENERATION;
    return ErrorCode.NONE;
  }

  leave(memberId: string): number {
    if (!this.members.has(memberId)) return ErrorCode.UNKNOWN_MEMBER_ID;
    this.remove([memberId]);
    return ErrorCode.NONE;
  }

  /** Whether a member may commit offsets now: the answer for each of its partitions. */
  commitError(memberId: string, generation: number): number {
    // A commit outside any membership (generation -1) is for a group nobody has joined.
    if (generation < 0 && memberId === '') return this.members.size === 0 ? ErrorCode.NONE : ErrorCode.UNKNOWN_MEMBER_ID;
    if (!this.members.has(memberId)) return ErrorCode.UNKNOWN_MEMBER_ID;
    if (generation !== this.generation) return ErrorCode.ILLEGAL_GENERATION;
    if (this.state === 'CompletingRebalance') return ErrorCode.REBALANCE_IN_PROGRESS;
    return ErrorCode.NONE;
  }

  /** Drops members silent past their session timeout, and ends a rebalance that waited too long. */
  sweep(now: number): void {
    const silent = [...this.members.values()].filter((m) => !m.joining && now - m.lastSeen > m.sessionTimeoutMs);
    if (silent.length > 0) this.remove(silent.map((m) => m.memberId));
    if (this.state !== 'PreparingRebalance') return;
    const timeout = Math.max(...[...this.members.values()].map((m) => m.rebalanceTimeoutMs));
    if (now - this.preparingSince <= timeout) return;
    const late = [...this.members.values()].filter((m) => !m.joining);
    for (const m of late) this.members.delete(m.memberId);
    this.completeJoinIfReady();
  }

  private remove(memberIds: string[]): void {
    for (const id of memberIds) {
      this.members.get(id)?.joining?.(failedJoin(ErrorCode.UNKNOWN_MEMBER_ID, id));
      this.members.delete(id);
    }
    if (this.members.size === 0) {
      this.state = 'Empty';
      this.leader = '';
      return;
    }
    this.prepareRebalance();
    this.completeJoinIfReady();
  }

  private prepareRebalance(): void {
    if (this.state === 'PreparingRebalance') return;
    this.state = 'PreparingRebalance';
    this.preparingSince = Date.now();
    for (const member of this.members.values()) {
      member.syncing?.({ error: ErrorCode.REBALANCE_IN_PROGRESS, assignment: Buffer.alloc(0) });
      member.syncing = undefined;
    }
  }

  private completeJoinIfReady(): void {
    if (this.state !== 'PreparingRebalance') return;
    const members = [...this.members.values()];
    if (members.some((m) => !m.joining)) return;
    this.generation += 1;
    if (members.length === 0) {
      this.state = 'Empty';
      return;
    }
    if (!this.members.has(this.leader)) this.leader = members[0]!.memberId;
    const leader = this.members.get(this.leader)!;
    // The leader's preference order, among the protocols every member supports.
    this.protocol = leader.protocols.find((p) => members.every((m) => supports(m, p.name)))!.name;
    this.state = 'CompletingRebalance';
    const all = members.map((m) => ({ memberId: m.memberId, metadata: m.protocols.find((p) => p.name === this.protocol)!.metadata }));
    for (const member of members) {
      const reply = member.joining!;
      member.joining = undefined;
      member.lastSeen = Date.now();
      reply({ error: ErrorCode.NONE, generation: this.generation, protocol: this.protocol, leader: this.leader, memberId: member.memberId, members: member.memberId === this.leader ? all : [] });
    }
  }

  private completeSync(assignments: Map<string, Buffer>): void {
    this.state = 'Stable';
    for (const member of this.members.values()) {
      member.assignment = assignments.get(member.memberId) ?? Buffer.alloc(0);
      member.syncing?.({ error: ErrorCode.NONE, assignment: member.assignment });
      member.syncing = undefined;
    }
  }
}

function supports(member: JoinRequest, protocol: string): boolean {
  return member.protocols.some((p) => p.name === protocol);
}

function failedJoin(error: number, memberId: string): JoinResult {
  return { error, generation: -1, protocol: '', leader: '', memberId, members: [] };
}
