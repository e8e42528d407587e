/**
 * Spaces the starts of requests to one upstream so that the whole process stays within the rate the
 * service asks for (metabase one request a second, store about twenty a minute). One pacer per
 * service, shared by every caller of that service.
 */
export interface Pacer {
  schedule<T>(fn: () => Promise<T>): Promise<T>;
}

export interface PacerOptions {
  enabled: boolean;
  minIntervalMs?: number;
  perMinute?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createPacer(options: PacerOptions): Pacer {
  const interval = intervalMs(options);
  if (!options.enabled || interval === 0) return { schedule: (fn) => fn() };
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  // When the previous start actually happened: a timer that fires late (a busy event loop) pushes
  // the next start later too, so two starts are never closer than the interval.
  let previous: Promise<number> = Promise.resolve(Number.NEGATIVE_INFINITY);
  return {
    async schedule(fn) {
      const started = previous.then(async (last) => {
        const wait = last + interval - now();
        if (wait > 0) await sleep(wait);
        return now();
      });
      // Chaining keeps concurrent callers in order without a queue of their own.
      previous = started;
      await started;
      return fn();
    },
  };
}

/** The stricter of the two limits wins. */
function intervalMs({ minIntervalMs = 0, perMinute }: PacerOptions): number {
  const fromRate = perMinute && perMinute > 0 ? 60_000 / perMinute : 0;
  return Math.max(minIntervalMs, fromRate);
}
