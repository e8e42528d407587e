import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `done` every 20 ms; fails after `ms` naming `what` was awaited. */
export async function until(done: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(20);
  }
}
