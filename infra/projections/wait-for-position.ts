import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { type Position, START, comparePositions } from '../eventstore/event-store.ts';
import { isBackground } from '../db/work-class.ts';
import { readCheckpoints } from './checkpoints.ts';

/**
 * Where each projector stands, for read-your-writes: null for a projector nobody waits for (stalled,
 * or rebuilding behind the live read models, whose read model is incomplete anyway).
 */
export type Progress = ReadonlyMap<string, Position | null>;

/** Whether every projector named (all when `projectors` is absent) has passed `target`. */
export function hasPassed(progress: Progress, target: Position, projectors?: ReadonlySet<string>): boolean {
  for (const [name, position] of progress) {
    if (projectors && !projectors.has(name)) continue;
    if (position && comparePositions(position, target) < 0) return false;
  }
  return true;
}

interface Waiter {
  target: Position;
  projectors: ReadonlySet<string> | undefined;
  /** Asked by a request, not by background work (a task waiting for the read models it matches on). */
  byRequest: boolean;
  resolve: (reached: boolean) => void;
  timer: NodeJS.Timeout;
}

/** Read-your-writes inside the projector's process: resolves once the projectors waited for pass a position. */
export class ProjectorWaiters {
  private progress: Progress;
  private waiters: Waiter[] = [];

  /** `onWaiter` hears of every wait that does not resolve at once: whether a request asked it. */
  constructor(
    projectors: readonly string[],
    private readonly onWaiter: (byRequest: boolean) => void = () => {},
  ) {
    this.progress = new Map(projectors.map((name) => [name, START]));
  }

  update(progress: Progress): void {
    this.progress = progress;
    const due = this.waiters.filter((w) => hasPassed(progress, w.target, w.projectors));
    if (due.length === 0) return;
    this.waiters = this.waiters.filter((w) => !due.includes(w));
    for (const w of due) {
      clearTimeout(w.timer);
      w.resolve(true);
    }
  }

  /** Whether anyone waits for the projections. */
  waiting(): boolean {
    return this.waiters.length > 0;
  }

  /** Whether a request waits for the projections (the embedded connection then lets them run, see ../db/connection-turns.ts). */
  awaitedByRequests(): boolean {
    return this.waiters.some((w) => w.byRequest);
  }

  /**
   * Resolves true once every projector named (every projector when absent) has passed `target`, false
   * after the timeout: the write is durable either way.
   */
  waitFor(target: Position, timeoutMs: number, projectors?: ReadonlySet<string>): Promise<boolean> {
    if (hasPassed(this.progress, target, projectors)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        target,
        projectors,
        byRequest: !isBackground(),
        resolve,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.push(waiter);
      this.onWaiter(waiter.byRequest);
    });
  }
}

/** Read-your-writes for an API process without the projector role: polls the stored checkpoints. */
export async function pollForPosition(db: Kysely<Database>, target: Position, timeoutMs: number, projectors?: ReadonlySet<string>): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stored = await readCheckpoints(db);
    // A projector that never saved a checkpoint stands at the start.
    const progress = new Map<string, Position | null>([...(projectors ?? [])].map((name) => [name, START]));
    for (const c of stored.values()) progress.set(c.name, c.state === 'live' ? c.position : null);
    if (hasPassed(progress, target, projectors)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}
