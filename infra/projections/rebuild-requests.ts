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
  signal?: AbortSignal;
}

interface ActiveRebuild extends RebuildRequest {
  processed: number;
}

/**
 * Rebuilds asked of the runner: queued, then followed until their projectors pass the target. A
 * cancelled request (its signal aborted) fails at once; the runner takes its projectors back.
 */
export class RebuildRequests {
  private pending: RebuildRequest[] = [];
  private active: ActiveRebuild[] = [];
  /** Projectors whose rebuild was cancelled or failed and that no other rebuild asks for. */
  private abandoned = new Set<string>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: EventStore,
    private readonly projectors: Projector[],
    private readonly wake: () => void,
  ) {}

  async request(names: string[], onProgress: (p: RebuildProgress) => void, signal?: AbortSignal): Promise<number> {
    const unknown = names.filter((n) => !this.projectors.some((p) => p.name === n));
    if (unknown.length > 0) throw new Error(`unknown projectors: ${unknown.join(', ')}`);
    const [total, target] = await Promise.all([this.countEvents(), this.store.headPosition()]);
    signal?.throwIfAborted();
    return new Promise((done, failed) => {
      const request: RebuildRequest = { names, total, target, onProgress, done, failed, signal };
      this.pending.push(request);
      signal?.addEventListener('abort', () => this.end(request, new Error('rebuild cancelled')), { once: true });
      this.wake();
    });
  }

  /** The projectors to take back to their previous read model, once each. */
  takeAbandoned(): string[] {
    const names = [...this.abandoned];
    this.abandoned.clear();
    return names;
  }

  /** Fails a request; what it had started and no other request wants is abandoned. */
  private end(request: RebuildRequest, error: unknown): void {
    const started = this.active.some((r) => r === request);
    this.pending = this.pending.filter((r) => r !== request);
    this.active = this.active.filter((r) => r !== request);
    request.failed(error);
    if (!started) return;
    const wanted = new Set([...this.pending, ...this.active].flatMap((r) => r.names));
    for (const name of request.names) if (!wanted.has(name)) this.abandoned.add(name);
    this.wake();
  }

  /** Prepares the projectors of each pending request; answers, per request started, the projectors to replay and what `prepare` made. */
  async startPending<T>(prepare: (projectors: Projector[]) => Promise<T>): Promise<{ projectors: Projector[]; prepared: T }[]> {
    const started: { projectors: Projector[]; prepared: T }[] = [];
    while (this.pending.length > 0) {
      const request = this.pending.shift()!;
      const projectors = this.projectors.filter((p) => request.names.includes(p.name));
      let prepared: T;
      try {
        prepared = await prepare(projectors);
      } catch (error) {
        request.failed(error);
        continue;
      }
      started.push({ projectors, prepared });
      // The same object as the pending one: a cancel finds it by identity.
      this.active.push(Object.assign(request, { processed: 0 }));
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
        const [name, s] = stall;
        this.end(rebuild, new Error(`read model ${name} stalled on ${s!.type} in ${s!.stream}: ${s!.error}`));
        continue;
      }
      rebuild.onProgress({ processed: rebuild.processed, total: rebuild.total });
      const laneOf = (name: string) => lanes.find((l) => l.projectors.some((p) => p.name === name));
      const passed = rebuild.names.every((name) => {
        const lane = laneOf(name);
        return lane && !lane.failure && !lane.shadow && comparePositions(lane.position, rebuild.target) >= 0;
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
