import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NextFunction, Request, Response } from 'express';
import { isBackground } from '../db/work-class.ts';

/**
 * Which requests are being served right now, so that background work on the embedded database
 * (one connection shared with the API) can hold back while the API is busy: a request then waits
 * for at most the one batch already under way, not for every batch started between its queries.
 */
export class RequestActivity {
  private active = 0;
  private lastActive = 0;
  private awaiting = 0;
  private readonly inRequest = new AsyncLocalStorage<true>();

  readonly middleware = (_req: Request, res: Response, next: NextFunction): void => {
    this.active += 1;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.active -= 1;
      this.lastActive = performance.now();
    };
    res.on('finish', end);
    res.on('close', end);
    this.inRequest.run(true, next);
  };

  /**
   * Runs `wait` without counting the calling request as busy: a command that waits for the
   * projections to pass its write must not hold those projections back.
   */
  async aside<T>(wait: () => Promise<T>): Promise<T> {
    // Background work a request started (a task) inherits its async context, but is not the request.
    if (!this.inRequest.getStore() || isBackground()) return wait();
    this.active -= 1;
    this.awaiting += 1;
    try {
      return await wait();
    } finally {
      this.awaiting -= 1;
      this.active += 1;
      this.lastActive = performance.now();
    }
  }

  /** Whether a request waits for background work (a command for its read models): that work should not wait for the API. */
  awaitsBackground(): boolean {
    return this.awaiting > 0;
  }

  /**
   * Resolves once no request has been served for `graceMs` (the gap between one client's
   * consecutive requests), or after `maxWaitMs`, so that a steady stream of requests slows
   * background work down but never stops it.
   */
  async quiet(graceMs: number, maxWaitMs: number): Promise<void> {
    const deadline = performance.now() + maxWaitMs;
    for (;;) {
      const now = performance.now();
      const idleFor = this.active > 0 ? 0 : now - this.lastActive;
      if (idleFor >= graceMs || now >= deadline) return;
      await sleep(Math.max(1, Math.min(graceMs - idleFor, deadline - now)));
    }
  }
}
