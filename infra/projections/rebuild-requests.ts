import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { type EventStore, type Position, comparePositions } from '../eventstore/event-store.ts';
import type { Stall } from './checkpoints.ts';
import type { Lane } from './lanes.ts';
import type { Projector } from './projector.ts';

export interface RebuildProgress {
  processed: number;
  total: number;
}

interface RebuildRequest {
  names: string[];
  total: number;
  /** The head of the log when the rebuild was asked for: done once its projectors pass it. */
  target: Position;
  onProgress: (p: RebuildProgress) => void;
  done: (events: number) => void;
  failed: (error: unknown) => void;
}

interface ActiveRebuild extends RebuildRequest {
  processed: number;
}

/** Rebuilds asked of the runner: queued, then followed until their projectors pass the target. */
export class RebuildRequests {
  private readonly pending: RebuildRequest[] = [];
  private active: ActiveRebuild[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: EventStore,
    private readonly projectors: Projector[],
    private readonly wake: () => void,
  ) {}

  async request(names: string[], onProgress: (p: RebuildProgress) => void): Promise<number> {
    const unknown = names.filter((n) => !this.projectors.some((p) => p.name === n));
    if (unknown.length > 0) throw new Error(`unknown projectors: ${unknown.join(', ')}`);
    const [total, target] = await Promise.all([this.countEvents(), this.store.headPosition()]);
    return new Promise((done, failed) => {
      this.pending.push({ names, total, target, onProgress, done, failed });
      this.wake();
    });
  }

  /** Resets the projectors of each pending request; answers, per request started, the projectors to replay. */
  async startPending(reset: (projectors: Projector[]) => Promise<void>): Promise<Projector[][]> {
    const started: Projector[][] = [];
    while (this.pending.length > 0) {
      const request = this.pending.shift()!;
      const projectors = this.projectors.filter((p) => request.names.includes(p.name));
      try {
        await reset(projectors);
      } catch (error) {
        request.failed(error);
        continue;
      }
      started.push(projectors);
      this.active.push({ ...request, processed: 0 });
    }
    return started;
  }

  /** Counts a batch read by a lane towards the rebuilds it carries. */
  count(lane: Lane, events: number): void {
    for (const rebuild of this.active) if (lane.projectors.some((p) => p.name === rebuild.names[0])) rebuild.processed += events;
  }

  /** Reports progress; a rebuild is done once its projectors pass the target, failed if one stalls. */
  settle(lanes: Lane[], stalled: ReadonlyMap<string, { stall: Stall }>): void {
    for (const rebuild of [...this.active]) {
      const stall = rebuild.names.map((name) => [name, stalled.get(name)?.stall] as const).find(([, s]) => s);
      if (stall) {
        this.active = this.active.filter((r) => r !== rebuild);
        const [name, s] = stall;
        rebuild.failed(new Error(`read model ${name} stalled on ${s!.type} in ${s!.stream}: ${s!.error}`));
        continue;
      }
      rebuild.onProgress({ processed: rebuild.processed, total: rebuild.total });
      const laneOf = (name: string) => lanes.find((l) => l.projectors.some((p) => p.name === name));
      const passed = rebuild.names.every((name) => {
        const lane = laneOf(name);
        return lane && !lane.failure && comparePositions(lane.position, rebuild.target) >= 0;
      });
      if (passed) {
        this.active = this.active.filter((r) => r !== rebuild);
        rebuild.done(rebuild.processed);
      }
    }
  }

  /** Progress needs a total; only the Postgres store can count cheaply. */
  private async countEvents(): Promise<number> {
    if (this.store.kind !== 'postgres') return 0;
    const row = await this.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
