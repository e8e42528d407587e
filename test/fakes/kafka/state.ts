import { randomUUID } from 'node:crypto';
import { Group } from './group.ts';
import { Log } from './log.ts';

export const NODE_ID = 0;

/** What every request handler sees: the one broker's address, its log and its groups. */
export class BrokerState {
  readonly log = new Log();
  readonly groups = new Map<string, Group>();
  host = '127.0.0.1';
  port = 0;
  closed = false;
  private readonly sweeper: NodeJS.Timeout;

  constructor(readonly options: { autoCreateTopics: boolean; defaultPartitions: number }) {
    this.sweeper = setInterval(() => {
      for (const group of this.groups.values()) group.sweep(Date.now());
    }, 100);
    this.sweeper.unref();
  }

  group(groupId: string): Group {
    let group = this.groups.get(groupId);
    if (!group) this.groups.set(groupId, (group = new Group((clientId) => `${clientId}-${randomUUID()}`)));
    return group;
  }

  close(): void {
    this.closed = true;
    clearInterval(this.sweeper);
    this.log.wakeAll();
  }
}
