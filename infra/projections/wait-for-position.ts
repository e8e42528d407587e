import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { type Position, START, comparePositions } from '../eventstore/event-store.ts';
import { livePosition } from './checkpoints.ts';

interface Waiter {
  target: Position;
  resolve: (reached: boolean) => void;
  timer: NodeJS.Timeout;
}

/** Read-your-writes inside the projector's process: resolves as soon as the live lane passes a position. */
export class PositionWaiters {
  private current: Position = START;
  private waiters: Waiter[] = [];

  reached(position: Position): void {
    this.current = position;
    const due = this.waiters.filter((w) => comparePositions(position, w.target) >= 0);
    if (due.length === 0) return;
    this.waiters = this.waiters.filter((w) => !due.includes(w));
    for (const w of due) {
      clearTimeout(w.timer);
      w.resolve(true);
    }
  }

  /** Resolves true once reached, false after the timeout: the write is durable either way. */
  waitFor(target: Position, timeoutMs: number): Promise<boolean> {
    if (comparePositions(this.current, target) >= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        target,
        resolve,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }
}

/** Read-your-writes for an API process without the projector role: polls the stored checkpoints. */
export async function pollForPosition(db: Kysely<Database>, target: Position, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (comparePositions(await livePosition(db), target) >= 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
}
